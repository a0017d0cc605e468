package reversi

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// dataLines reads the test data file name: the whitespace-separated fields
// of each line, blank lines and lines starting with '#' left out.
func dataLines(tb testing.TB, name string) [][]string {
	tb.Helper()
	f, err := os.Open(name)
	if err != nil {
		tb.Fatalf("open %s: %v", name, err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		out = append(out, strings.Fields(line))
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read %s: %v", name, err)
	}
	return out
}
