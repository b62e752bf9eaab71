/** The repository's Python tool environment in .venv/ (see python-env.mjs). */
export interface PythonEnv {
  /** The venv's interpreter. */
  python: string;
  /** The venv's folder of console scripts (pytest, mypy, ruff...). */
  bin: string;
  venv: string;
  /** False when the stamp matched and nothing was run. */
  changed: boolean;
}

export function ensurePythonEnv(options?: { log?: (message: string) => void }): PythonEnv;
export function venvPython(venv?: string): string;
export function venvBin(venv?: string): string;
