// einvoice build of FerretDB: filter and sort pushdown for the SQLite backend.
// This file is not part of FerretDB; stack/tools.ts copies it into the module at build time.

package sqlite

import (
	"encoding/hex"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/types"
)

// pushdown is the SQL that Query and Explain run for the given parameters.
// It is decided here and nowhere else (FerretDB's TODO for issue 3235).
type pushdown struct {
	where   string // " WHERE …" or ""
	orderBy string // " ORDER BY …" or ""
	args    []any

	// fieldSorted is true when orderBy applies the requested field sort.
	fieldSorted bool

	// fewRows is true when the filter looks up one or a few values of a uniquely indexed field
	// (Query then reads the rows at once).
	fewRows bool
}

// newPushdown returns the SQL conditions and ordering for the given filter and sorts.
//
// Filter: for every top-level field (no "$" operator, no dotted path) covered by an index of the
// collection, a condition that is a scalar value (string, ObjectId, int32, int64, double, bool, date)
// or a document of $eq, $in, $gt, $gte, $lt and $lte with such values becomes SQL on
// metadata.FieldExpression(field), which that index can serve. Anything else is left to the handler.
// The SQL must select a SUPERSET of the matching documents (the handler filters again), never fewer:
//   - only indexed fields are used, because this build refuses arrays in them (see refuseArrays);
//     an array elsewhere would match a scalar condition in MongoDB but not in SQL;
//   - the SQL value of a field holds no type, so 1 = true = 1970-01-01T00:00:00.001Z and an ObjectId
//     equals its hex string in SQL: extra rows, which the handler drops;
//   - strings compare with SQLite's BINARY collation on the unescaped UTF-8 text, which is MongoDB's
//     (and FerretDB's) order for strings;
//   - SQLite does not always read a stored double back exactly (measured: a double of 2^53 or more is
//     written as an integer that is not its exact value, and beyond about 1e±60 the parse can be one
//     unit in the last place off), so number conditions other than equality with an integer below 2^53
//     are widened by a relative margin (numberMargin); dates and integers below 2^53 are exact.
//
// Sort: a field sort on top-level indexed fields becomes ORDER BY on the same expressions.
// Its order is MongoDB's when each sorted field holds one scalar type in the matching documents
// (strings, or numbers, or dates; null and missing sort first, as in MongoDB); SQL puts numbers,
// dates and booleans in one numeric order and ObjectIds among strings, and doubles beyond the limits
// above may swap with neighbours that differ in the last place. No tiebreak is added: MongoDB gives
// no order among equal keys either, and an index that serves the ORDER BY returns them in its (rowid) order.
// A $natural sort (capped collections) keeps FerretDB's own ORDER BY on the record ID.
func newPushdown(meta *metadata.Collection, filter, sort *types.Document, fieldSort []backends.SortField) *pushdown {
	indexed := map[string]bool{"_id": true}
	unique := map[string]bool{"_id": true}

	for _, index := range meta.Settings.Indexes {
		for _, key := range index.Key {
			indexed[key.Field] = true
		}

		if index.Unique && len(index.Key) == 1 {
			unique[index.Key[0].Field] = true
		}
	}

	var p pushdown
	var conds []string

	values := filter.Values()

	for i, key := range filter.Keys() {
		if !indexed[key] || !plainField(key) {
			continue
		}

		c, a := fieldConditions(metadata.FieldExpression(key), values[i])
		conds = append(conds, c...)
		p.args = append(p.args, a...)

		if c != nil && unique[key] && pointLookup(values[i]) {
			p.fewRows = true
		}
	}

	if len(conds) > 0 {
		p.where = " WHERE " + strings.Join(conds, " AND ")
	}

	if sort.Len() != 0 {
		p.orderBy = prepareOrderByClause(sort)
		return &p
	}

	terms := make([]string, len(fieldSort))

	for i, f := range fieldSort {
		if !indexed[f.Field] || !plainField(f.Field) {
			return &p
		}

		terms[i] = metadata.FieldExpression(f.Field)
		if f.Descending {
			terms[i] += " DESC"
		}
	}

	if len(terms) > 0 {
		p.orderBy = " ORDER BY " + strings.Join(terms, ", ")
		p.fieldSorted = true
	}

	return &p
}

// pointLookup reports whether a pushed-down field condition selects at most a few values:
// a value, or operators that include $eq or an $in of up to 100 values.
func pointLookup(v any) bool {
	ops, ok := v.(*types.Document)
	if !ok {
		return true
	}

	values := ops.Values()

	for i, op := range ops.Keys() {
		if arr, ok := values[i].(*types.Array); op == "$eq" || (op == "$in" && ok && arr.Len() <= 100) {
			return true
		}
	}

	return false
}

// plainField reports whether the name is a top-level field that FieldExpression can address.
func plainField(name string) bool {
	return !strings.HasPrefix(name, "$") && !strings.ContainsAny(name, ".\x00") && utf8.ValidString(name)
}

// fieldConditions returns SQL conditions for one field's filter value, or none if any part of it
// is unsupported.
func fieldConditions(expr string, v any) ([]string, []any) {
	ops, ok := v.(*types.Document)
	if !ok {
		return equality(expr, v)
	}

	if ops.Len() == 0 {
		return nil, nil
	}

	var conds []string
	var args []any

	values := ops.Values()

	for i, op := range ops.Keys() {
		var c []string
		var a []any

		switch op {
		case "$eq":
			c, a = equality(expr, values[i])
		case "$in":
			c, a = in(expr, values[i])
		case "$gt", "$gte", "$lt", "$lte":
			c, a = bound(expr, op, values[i])
		}

		if c == nil {
			return nil, nil
		}

		conds = append(conds, c...)
		args = append(args, a...)
	}

	return conds, args
}

// equality returns the condition for a field equal to v.
func equality(expr string, v any) ([]string, []any) {
	if f, ok := number(v); ok {
		if i, exact := safeInteger(f); exact {
			return []string{expr + " = ?"}, []any{i}
		}

		lo, hi := numberMargin(f)

		return []string{expr + " BETWEEN ? AND ?"}, []any{lo, hi}
	}

	if s, ok := sqlValue(v); ok {
		return []string{expr + " = ?"}, []any{s}
	}

	return nil, nil
}

// in returns the condition for {$in: array}, if every element compares exactly in SQL.
func in(expr string, v any) ([]string, []any) {
	arr, ok := v.(*types.Array)
	if !ok || arr.Len() == 0 {
		return nil, nil
	}

	args := make([]any, arr.Len())
	marks := make([]string, arr.Len())

	for i := range args {
		e, _ := arr.Get(i)

		if f, ok := number(e); ok {
			if args[i], ok = safeInteger(f); !ok {
				return nil, nil
			}
		} else if args[i], ok = sqlValue(e); !ok {
			return nil, nil
		}

		marks[i] = "?"
	}

	return []string{expr + " IN (" + strings.Join(marks, ", ") + ")"}, args
}

// bound returns the condition for {$gt|$gte|$lt|$lte: v}.
func bound(expr, op string, v any) ([]string, []any) {
	lower := op == "$gt" || op == "$gte"

	if f, ok := number(v); ok {
		lo, hi := numberMargin(f)
		if lower {
			return []string{expr + " >= ?"}, []any{lo}
		}

		return []string{expr + " <= ?"}, []any{hi}
	}

	s, ok := sqlValue(v)
	if !ok {
		return nil, nil
	}

	sqlOp := map[string]string{"$gt": " > ?", "$gte": " >= ?", "$lt": " < ?", "$lte": " <= ?"}[op]

	return []string{expr + sqlOp}, []any{s}
}

// number returns a finite number filter value as float64.
func number(v any) (float64, bool) {
	var f float64

	switch v := v.(type) {
	case int32:
		f = float64(v)
	case int64:
		f = float64(v) // exact below 2^53; above, rounded well within numberMargin
	case float64:
		f = v
	default:
		return 0, false
	}

	return f, !math.IsNaN(f) && !math.IsInf(f, 0)
}

// safeInteger returns f as int64 if it is an integer below 2^53 in magnitude:
// every stored number equal to it is then written as that integer in JSON, and read exactly by SQLite.
func safeInteger(f float64) (int64, bool) {
	if f != math.Trunc(f) || math.Abs(f) >= 1<<53 {
		return 0, false
	}

	return int64(f), true
}

// numberMargin returns bounds around f that include every stored number equal to f as SQLite reads it.
func numberMargin(f float64) (float64, float64) {
	margin := max(math.Abs(f)*0x1p-44, 1e-300)

	return f - margin, f + margin
}

// sqlValue returns the SQL value that `->>` gives for a stored non-number value equal to v.
func sqlValue(v any) (any, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case types.ObjectID:
		return hex.EncodeToString(v[:]), true // as sjson stores it
	case bool:
		if v {
			return int64(1), true
		}

		return int64(0), true
	case time.Time:
		return v.UnixMilli(), true // as sjson stores it
	default:
		return nil, false
	}
}
