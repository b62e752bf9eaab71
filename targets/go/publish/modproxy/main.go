// Command modproxy writes module versions into a module proxy folder, the layout the go command reads with
// GOPROXY=file://<folder> and any static file server serves, and gives Go's h1: hash of a module zip. The zip, its
// checks and its hash come from golang.org/x/mod, Go's own module library, so that a published zip holds exactly the
// files the go command would put in it and its hash is the one go.sum records.
//
// Usage:
//
//	modproxy hash <zip>
//	modproxy add <proxy folder> <module folder> <module path> <version> <time, RFC 3339>
//
// Both print the zip's h1: hash.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	"golang.org/x/mod/zip"
)

const usage = `usage:
  modproxy hash <zip>
  modproxy add <proxy folder> <module folder> <module path> <version> <time, RFC 3339>`

func main() {
	var (
		h1  string
		err error
	)
	switch {
	case len(os.Args) == 3 && os.Args[1] == "hash":
		h1, err = dirhash.HashZip(os.Args[2], dirhash.Hash1)
	case len(os.Args) == 7 && os.Args[1] == "add":
		h1, err = add(os.Args[2], os.Args[3], os.Args[4], os.Args[5], os.Args[6])
	default:
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
	fmt.Println(h1)
}

// add writes the version's .mod, .info and .zip below <proxy>/<escaped module path>/@v and lists the version last,
// so that a run stopped half-way leaves a version that is not listed, never a listed one with files missing. Each
// file is written aside and renamed into place: a reader sees it whole or not at all.
func add(proxy, root, path, version, stamp string) (string, error) {
	at, err := time.Parse(time.RFC3339, stamp)
	if err != nil {
		return "", err
	}
	m := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return "", err
	}
	// Upper-case letters written as '!' and the lower-case letter: the proxy protocol's names, safe on file systems
	// that ignore case.
	escPath, err := module.EscapePath(path)
	if err != nil {
		return "", err
	}
	escVersion, err := module.EscapeVersion(version)
	if err != nil {
		return "", err
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	// The go command refuses a module whose go.mod names another path than the one it was fetched by.
	if named := modfile.ModulePath(mod); named != path {
		return "", fmt.Errorf("%s names module %q, not %q", filepath.Join(root, "go.mod"), named, path)
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, at.UTC()})
	if err != nil {
		return "", err
	}
	dir := filepath.Join(proxy, filepath.FromSlash(escPath), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}

	// CreateFromDir leaves out what a module zip must not hold (version control folders, nested modules, vendored
	// packages, irregular files) and refuses files whose names or sizes the go command would reject.
	var zipped bytes.Buffer
	if err := zip.CreateFromDir(&zipped, m, root); err != nil {
		return "", err
	}
	zipFile := filepath.Join(dir, escVersion+".zip")
	if err := put(zipFile, zipped.Bytes(), func(aside string) error {
		_, err := zip.CheckZip(m, aside)
		return err
	}); err != nil {
		return "", err
	}
	h1, err := dirhash.HashZip(zipFile, dirhash.Hash1)
	if err != nil {
		return "", err
	}
	if err := put(filepath.Join(dir, escVersion+".mod"), mod, nil); err != nil {
		return "", err
	}
	if err := put(filepath.Join(dir, escVersion+".info"), info, nil); err != nil {
		return "", err
	}

	list := filepath.Join(dir, "list")
	known, err := os.ReadFile(list)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	versions := strings.Fields(string(known))
	if !slices.Contains(versions, version) {
		versions = append(versions, version)
	}
	return h1, put(list, []byte(strings.Join(versions, "\n")+"\n"), nil)
}

// put writes data beside target, runs check on that file when given, and renames it into place.
func put(target string, data []byte, check func(aside string) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*")
	if err != nil {
		return err
	}
	aside := f.Name()
	defer func() {
		if err != nil {
			os.Remove(aside)
		}
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// CreateTemp makes the file readable by its owner only; a proxy folder is served to others.
	if err := os.Chmod(aside, 0o644); err != nil {
		return err
	}
	if check != nil {
		if err := check(aside); err != nil {
			return err
		}
	}
	return os.Rename(aside, target)
}
