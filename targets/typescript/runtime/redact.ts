// Redaction of secrets from texts the runtime throws or logs. A secret is replaced where it stands as a token of
// its own, never inside a word: with the token "t", the server's "no pet" stays "no pet". Secrets long enough not
// to occur by chance are replaced anywhere, so a key glued to other text does not leak.

const MARK = "[redacted]";

/** From this length a secret is redacted even inside a longer word. */
export const ANYWHERE_FROM_LENGTH = 12;

const WORD = /[\p{L}\p{N}_]/u;

/** A credential after an `Authorization: Bearer` scheme name: token68 text with at least one digit or symbol. */
const BEARER = /\b(Bearer\s+)(?=[A-Za-z0-9._~+/=-]*[0-9._~+/=-])[A-Za-z0-9._~+/-]{8,}=*/gi;

const isWord = (c: string | undefined): boolean => c !== undefined && WORD.test(c);

/** Replaces each secret where it is not part of a longer word, then bearer credentials and branded tokens. */
export function redactSecrets(text: string, secrets: Iterable<string>, brandPattern: string | undefined): string {
  let out = text;
  // Longest first, so that a secret inside another is not replaced before the longer one.
  for (const secret of [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length)) {
    out = secret.length >= ANYWHERE_FROM_LENGTH ? out.split(secret).join(MARK) : replaceBounded(out, secret);
  }
  out = out.replace(BEARER, `$1${MARK}`);
  return brandPattern === undefined ? out : out.replace(new RegExp(brandPattern, "g"), MARK);
}

function replaceBounded(text: string, secret: string): string {
  const first = isWord(secret[0]);
  const last = isWord(secret[secret.length - 1]);
  let out = "";
  let from = 0;
  for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
    if (at < from) continue;
    const end = at + secret.length;
    if ((first && isWord(text[at - 1])) || (last && isWord(text[end]))) continue;
    out += text.slice(from, at) + MARK;
    from = end;
  }
  return out + text.slice(from);
}
