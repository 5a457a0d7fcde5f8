package i18n

// cliEntries: the command line's usage and help texts.
var cliEntries = []Entry{
	{"%d steps", "%d 步"},
}
