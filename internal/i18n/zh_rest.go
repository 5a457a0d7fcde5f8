package i18n

// restEntries: the last sentences of the reports and the scenario's
// checks that other tables do not hold: why a comparison column dropped a
// modifier of the design (scenario.Dropped), and the errors of
// Scenario.Validate and ForStrategy that a scenario built in code, or a
// comparison, reaches past the loader.
var restEntries = []Entry{
	{Key: "client %s does not use it", ZH: "客户端库 %s 不使用它"},
}
