package i18n

// tuiEntries: the TUI's chrome (panel titles, header, footer, help, prompts).
var tuiEntries = []Entry{}
