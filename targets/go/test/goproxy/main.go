// Command goproxy adds one module version to a module proxy folder in the layout the go command reads with
// GOPROXY=file://<folder>: <module>/@v/list, <version>.info, <version>.mod and <version>.zip, whose entries are
// below <module>@<version>/, with upper-case letters of the module path written as '!' and the lower-case letter.
//
// Usage: go run . <proxy folder> <module folder> <module path> <version> <time, RFC 3339>
package main

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
)

func escape(path string) string {
	var b strings.Builder
	for _, r := range path {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// files lists the module's regular files, slash-separated and sorted, leaving out folders that are modules of their
// own (a go.mod of their own), version control folders and vendor/, as a module zip must.
func files(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			if d.Name() == "vendor" || strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

func writeZip(target, root, prefix string, names []string) error {
	f, err := os.Create(target)
	if err != nil {
		return err
	}
	w := zip.NewWriter(f)
	for _, name := range names {
		entry, err := w.Create(prefix + name)
		if err != nil {
			return err
		}
		src, err := os.Open(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			return err
		}
		_, err = io.Copy(entry, src)
		src.Close()
		if err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

func run(proxy, root, module, version, stamp string) error {
	at, err := time.Parse(time.RFC3339, stamp)
	if err != nil {
		return err
	}
	dir := filepath.Join(proxy, filepath.FromSlash(escape(module)), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, version+".mod"), mod, 0o644); err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, at.UTC()})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, version+".info"), info, 0o644); err != nil {
		return err
	}
	names, err := files(root)
	if err != nil {
		return err
	}
	if err := writeZip(filepath.Join(dir, version+".zip"), root, module+"@"+version+"/", names); err != nil {
		return err
	}
	list := filepath.Join(dir, "list")
	known, err := os.ReadFile(list)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	versions := strings.Fields(string(known))
	if !slices.Contains(versions, version) {
		versions = append(versions, version)
	}
	return os.WriteFile(list, []byte(strings.Join(versions, "\n")+"\n"), 0o644)
}

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: goproxy <proxy folder> <module folder> <module path> <version> <time>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5]); err != nil {
		fmt.Fprintln(os.Stderr, "goproxy:", err)
		os.Exit(1)
	}
}
