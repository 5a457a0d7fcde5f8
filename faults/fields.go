package faults

// Field is one key of a fault kind's mapping. Its value lives in the Fault
// field that Ptr points at; the type of that pointer (*string,
// *time.Duration, *float64, *[][]string) says how the loader reads it and
// the exporter writes it.
type Field struct {
	Name string // as spelled in the format
	Unit string // what the value is measured in
	Doc  string
	// OmitZero: the exporter leaves the field out when it is zero (it is
	// optional, and zero means "absent").
	OmitZero bool
	Ptr      func(f *Fault) any
	// Shrink lists the one-step simplifications of f in this field,
	// boldest first (explore's shrinker); nil: the field does not shrink.
	Shrink func(f Fault) []Fault
}

// The fields of the fault kinds. Each kind lists the ones it takes.
var (
	FieldTarget = &Field{Name: "target", Unit: "process name",
		Doc: "the client, node or sentinel struck", Ptr: func(f *Fault) any { return &f.Target }}
	FieldFor = &Field{Name: "for", Unit: "duration, > 0",
		Doc: "how long the fault lasts", Ptr: func(f *Fault) any { return &f.For }, Shrink: shrinkFor}
	FieldRestartAfter = &Field{Name: "restart_after", Unit: "duration, > 0; absent: stays down", OmitZero: true,
		Doc: "when a crashed node comes back", Ptr: func(f *Fault) any { return &f.RestartAfter }, Shrink: shrinkRestart}
	FieldBy = &Field{Name: "by", Unit: "duration, ±24h, not 0",
		Doc: "how far the clock steps (negative: back)", Ptr: func(f *Fault) any { return &f.By }, Shrink: shrinkBy}
	FieldRate = &Field{Name: "rate", Unit: "× true speed, from MinRate to MaxRate",
		Doc: "how fast the clock runs from now on", Ptr: func(f *Fault) any { return &f.Rate }, Shrink: shrinkRate}
	FieldGroups = &Field{Name: "groups", Unit: "lists of process names",
		Doc: "the sides of the partition; no traffic between them", Ptr: func(f *Fault) any { return &f.Groups }, Shrink: shrinkGroups}
	FieldLatency = &Field{Name: "latency", Unit: "duration, >= 0",
		Doc: "extra one-way delay on every link of the target", Ptr: func(f *Fault) any { return &f.Latency }, Shrink: shrinkLatency}
	FieldLoss = &Field{Name: "loss", Unit: "probability, 0..1",
		Doc: "chance that a message on the target's links is dropped", Ptr: func(f *Fault) any { return &f.Loss }, Shrink: shrinkLoss}
)

// shrinkOrder is the order the shrinker tries the fields in.
var shrinkOrder = []*Field{FieldFor, FieldRestartAfter, FieldBy, FieldLatency, FieldRate, FieldLoss, FieldGroups}
