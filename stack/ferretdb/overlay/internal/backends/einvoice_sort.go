// einvoice build of FerretDB: field sort pushdown in the backend contract.
// This file is not part of FerretDB; stack/tools.ts copies it into the module at build time.

package backends

// SortField is one key of a field sort passed down in QueryParams.FieldSort:
// a top-level field name (no dots, no "$") and its direction.
//
// A backend that applies the sort sets QueryResult.FieldSorted; one that does not
// leaves it false, and the handler sorts in memory as before.
type SortField struct {
	Field      string
	Descending bool
}
