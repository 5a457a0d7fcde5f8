package i18n

// Error is an error whose text is a sentence of the catalogue, kept
// unrendered: Error is its English, ErrorIn its text in another language
// (the CLI looks for ErrorIn), and Unwrap its cause, for errors.Is and As.
// A sentence that wraps another such error takes the inner one's Msg as
// an argument, so that both are said in one language.
type Error struct {
	Msg Msg
	Err error // the cause, or nil
}

// Errorf is an Error of the catalogue's format with args, caused by cause
// (nil for none).
func Errorf(cause error, format string, args ...any) *Error {
	return &Error{Msg: M(format, args...), Err: cause}
}

func (e *Error) Error() string { return e.Msg.String() }

// ErrorIn is the error's text in l.
func (e *Error) ErrorIn(l Lang) string { return e.Msg.In(l) }

func (e *Error) Unwrap() error { return e.Err }
