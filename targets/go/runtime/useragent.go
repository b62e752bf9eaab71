package sdkruntime

import (
	"strings"
	"unicode"
)

// latinBase maps accented Latin letters to their base letters, the part of Unicode decomposition a User-Agent
// token needs ("Café" becomes "Cafe"). Letters not listed become a dash like any other non-token character.
var latinBase = map[rune]string{
	'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'ä': "a", 'å': "a", 'ç': "c", 'è': "e", 'é': "e", 'ê': "e", 'ë': "e",
	'ì': "i", 'í': "i", 'î': "i", 'ï': "i", 'ñ': "n", 'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o", 'ö': "o", 'ù': "u",
	'ú': "u", 'û': "u", 'ü': "u", 'ý': "y", 'ÿ': "y", 'À': "A", 'Á': "A", 'Â': "A", 'Ã': "A", 'Ä': "A", 'Å': "A",
	'Ç': "C", 'È': "E", 'É': "E", 'Ê': "E", 'Ë': "E", 'Ì': "I", 'Í': "I", 'Î': "I", 'Ï': "I", 'Ñ': "N", 'Ò': "O",
	'Ó': "O", 'Ô': "O", 'Õ': "O", 'Ö': "O", 'Ù': "U", 'Ú': "U", 'Û': "U", 'Ü': "U", 'Ý': "Y",
}

// isTokenChar reports whether c may appear in an HTTP token.
func isTokenChar(c rune) bool {
	return c < 128 && (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.ContainsRune("!#$%&'*+.^_`|~-", c))
}

// UserAgentToken turns text into HTTP token text: "Café Orders API" becomes "Cafe-Orders-API". Accents are
// dropped, runs of anything else outside a token become one dash, and dashes at either end are removed.
func UserAgentToken(text string) string {
	var b strings.Builder
	dash := false
	for _, r := range text {
		if base, ok := latinBase[r]; ok {
			b.WriteString(base)
			dash = false
			continue
		}
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if isTokenChar(r) && r != '-' {
			b.WriteRune(r)
			dash = false
			continue
		}
		if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-")
}

// asciiHeaderText keeps printable ASCII; other characters become '?', control characters are dropped.
func asciiHeaderText(text string) string {
	var b strings.Builder
	for _, r := range text {
		if base, ok := latinBase[r]; ok {
			b.WriteString(base)
			continue
		}
		switch {
		case unicode.Is(unicode.Mn, r), unicode.IsControl(r):
		case r >= 0x20 && r <= 0x7e:
			b.WriteRune(r)
		default:
			b.WriteByte('?')
		}
	}
	return strings.TrimSpace(b.String())
}

// UserAgent returns "<title-slug>-sdk-go/<release>", with the suffix after a space when it is not empty. The
// slug is the lower-cased token text of the model's title ("api" when it has none); the release becomes token
// text too ("0" when empty).
func UserAgent(model *Model, suffix string) string {
	product := strings.ToLower(UserAgentToken(model.Title))
	if product == "" {
		product = "api"
	}
	version := UserAgentToken(model.Release)
	if version == "" {
		version = "0"
	}
	ua := product + "-sdk-go/" + version
	if extra := asciiHeaderText(suffix); extra != "" {
		ua += " " + extra
	}
	return ua
}
