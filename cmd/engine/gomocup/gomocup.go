// Package gomocup is being written (see the open engine issue); Run fails until then.
package gomocup

import (
	"context"
	"errors"
	"io"
)

// Run is replaced by the real protocol loop.
func Run(ctx context.Context, in io.Reader, out io.Writer) error {
	return errors.New("gomocup: not built yet")
}
