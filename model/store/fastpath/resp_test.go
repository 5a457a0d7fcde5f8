package fastpath

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/alicebob/miniredis/v2/server"
)

// ParseReply must give exactly what server.ParseReply gives, fast path or not.
func TestParseReplyMatchesParseReply(t *testing.T) {
	cases := []string{
		"+OK\r\n", "+QUEUED\r\n", "+\r\n", "+O\r\n",
		":0\r\n", ":1\r\n", ":-1\r\n", ":123456789\r\n", ":+5\r\n", ":007\r\n", ":-0\r\n", ":\r\n",
		":99999999999999999999\r\n", ":1x\r\n",
		"$-1\r\n", "$-2\r\n", "$0\r\n\r\n", "$5\r\nhello\r\n", "$5\r\nhe\r\nl\r\n", "$3\r\nabcdef\r\n",
		"$+3\r\nabc\r\n", "$x\r\n", "*-1\r\n", "*2\r\n:1\r\n$1\r\na\r\n", "*0\r\n",
		"-ERR x\r\n", "+OK\n", ":1\n", "$1\r\na", "+OK\r\n:1\r\n",
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("+-:$*0123456789-\r\nabOK")
	for range 20000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		if len(c) == 0 {
			continue
		}
		var buf bytes.Buffer
		buf.WriteString(c)
		rd := bufio.NewReaderSize(&buf, 64)
		got, gerr := ParseReply(buf.Bytes(), rd, &buf)

		var ref bytes.Buffer
		ref.WriteString(c)
		want, werr := parseRef(&ref)
		if !reflect.DeepEqual(got, want) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Fatalf("%q: got %#v, %v; ParseReply gives %#v, %v", c, got, gerr, want, werr)
		}
	}
}

func parseRef(b *bytes.Buffer) (any, error) {
	return server.ParseReply(bufio.NewReader(b))
}
