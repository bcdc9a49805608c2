// einvoice build of FerretDB: tests of the pushdown, the indexed _id condition and compare-and-swap.
// This file is not part of FerretDB; stack/tools.ts copies it into the module at build time
// (`npm run test:ferretdb` builds that tree and runs it).

package sqlite

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/common"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/must"
	"github.com/FerretDB/FerretDB/internal/util/state"
	"github.com/FerretDB/FerretDB/internal/util/testutil"
)

// einvoiceCollection returns a new collection with the given single-field indexes.
func einvoiceCollection(t *testing.T, fields ...string) (*metadata.Registry, backends.Collection) {
	t.Helper()

	sp, err := state.NewProvider("")
	require.NoError(t, err)

	r, err := metadata.NewRegistry(testutil.TestSQLiteURI(t, ""), 100, testutil.Logger(t), sp)
	require.NoError(t, err)
	t.Cleanup(r.Close)

	c := newCollection(r, testutil.DatabaseName(t), testutil.CollectionName(t))

	indexes := make([]backends.IndexInfo, len(fields))
	for i, f := range fields {
		indexes[i] = backends.IndexInfo{Name: fmt.Sprintf("i%d", i), Key: []backends.IndexKeyPair{{Field: f}}}
	}

	_, err = c.CreateIndexes(testutil.Ctx(t), &backends.CreateIndexesParams{Indexes: indexes})
	require.NoError(t, err)

	return r, c
}

func einvoiceQuery(t *testing.T, c backends.Collection, qp *backends.QueryParams) []*types.Document {
	t.Helper()

	res, err := c.Query(testutil.Ctx(t), qp)
	require.NoError(t, err)

	docs, err := iterator.ConsumeValues(res.Iter)
	require.NoError(t, err)

	return docs
}

// einvoiceValues are the field values the tests store and filter with.
func einvoiceValues() []any {
	oid := types.ObjectID{0x65, 0x1f, 0, 0xff, 1, 2, 3, 4, 5, 6, 7, 8}

	return []any{
		"", "a", "b", "a b", `q"uote`, "back\\slash", "it's", "<&>", "\u2028", "ü", "é", "z", "€", "😀", "a\x00b", "A", "10", "9",
		int32(0), int32(1), int32(-1), int32(10), int32(math.MaxInt32), int64(1) << 53, int64(1)<<53 + 1, int64(math.MaxInt64),
		int64(583159883093847800), int64(-583159883093847808),
		0.0, math.Copysign(0, -1), 0.1, 0.3, 1.0, 1.5, -2.5, 10.0, 1e20, 1e21, 1e-7, 9007199254740994.0,
		583159883093847808.0, -1.1193343192355711e-259, 4.5839872293881456e-215, -8.599527775938914e+234,
		math.MaxFloat64, math.SmallestNonzeroFloat64, -math.MaxFloat64,
		true, false,
		time.UnixMilli(0).UTC(), time.UnixMilli(1).UTC(), time.UnixMilli(1700000000123).UTC(), time.UnixMilli(-5).UTC(),
		oid, types.ObjectID{0x65, 0x1f, 0, 0xfe}, types.ObjectID{},
		types.Null,
		must.NotFail(types.NewDocument("a", int32(1))),
	}
}

// TestEinvoiceRoundTrip checks what compare-and-swap relies on: sjson.Marshal of a document read back
// gives exactly the stored text.
func TestEinvoiceRoundTrip(t *testing.T) {
	t.Parallel()

	r, c := einvoiceCollection(t)
	ctx := testutil.Ctx(t)

	values := einvoiceValues()
	rnd := rand.New(rand.NewPCG(1, 2))

	var docs []*types.Document

	for i := range 300 {
		doc := must.NotFail(types.NewDocument("_id", int32(i)))

		for j := range 6 {
			v := values[rnd.IntN(len(values))]
			if j == 5 {
				v = must.NotFail(types.NewArray(v, values[rnd.IntN(len(values))]))
			}

			doc.Set(fmt.Sprintf("f%d", j), v)
		}

		doc.Set("bin", types.Binary{Subtype: types.BinaryGeneric, B: []byte{byte(i), 0, 255}})
		doc.Set("ts", types.Timestamp(uint64(i)<<32|7))
		doc.Set("re", types.Regex{Pattern: `^a"\d`, Options: "i"})
		doc.Set("d", math.Float64frombits(rnd.Uint64()&^(0x7ff<<52)|uint64(rnd.IntN(0x7fe))<<52))
		docs = append(docs, doc)
	}

	_, err := c.InsertAll(ctx, &backends.InsertAllParams{Docs: docs})
	require.NoError(t, err)

	db := r.DatabaseGetExisting(ctx, testutil.DatabaseName(t))
	meta := r.CollectionGet(ctx, testutil.DatabaseName(t), testutil.CollectionName(t))

	rows, err := db.QueryContext(ctx, fmt.Sprintf("SELECT _ferretdb_sjson FROM %q ORDER BY rowid", meta.TableName))
	require.NoError(t, err)

	defer rows.Close()

	read := einvoiceQuery(t, c, nil)

	for i := 0; rows.Next(); i++ {
		var stored string
		require.NoError(t, rows.Scan(&stored))

		again, err := sjson.Marshal(read[i])
		require.NoError(t, err)
		require.Equal(t, stored, string(again))
	}

	require.NoError(t, rows.Err())
}

// TestEinvoiceFilterSuperset checks that the pushed-down SQL selects every document
// that the handler's filter matches, and that the sort pushdown orders one-type fields as the handler does.
func TestEinvoiceFilterSuperset(t *testing.T) {
	t.Parallel()

	const odd = `o'd <&> ü` // sjson writes top-level keys unescaped: " or \ in them make invalid JSON (FerretDB's own limit)

	_, c := einvoiceCollection(t, "v", odd, "s", "n", "d")
	ctx := testutil.Ctx(t)

	values := einvoiceValues()
	r := rand.New(rand.NewPCG(3, 4))

	var docs []*types.Document

	for i := range 500 {
		var id any = int32(i)
		if i%3 == 1 {
			id = fmt.Sprintf("id-%d", i)
		} else if i%3 == 2 {
			id = types.ObjectID{byte(i >> 8), byte(i), 1}
		}

		doc := must.NotFail(types.NewDocument("_id", id))

		for _, f := range []string{"v", odd} {
			if r.IntN(8) > 0 {
				doc.Set(f, values[r.IntN(len(values))])
			}
		}

		doc.Set("s", fmt.Sprintf("%c%d", []rune("aAb ü😀")[r.IntN(6)], r.IntN(50)))
		doc.Set("n", []any{int32(r.IntN(100) - 50), float64(r.IntN(1000)) / 8, int64(r.IntN(100))}[r.IntN(3)])
		doc.Set("d", time.UnixMilli(r.Int64N(1e12)).UTC())
		docs = append(docs, doc)
	}

	_, err := c.InsertAll(ctx, &backends.InsertAllParams{Docs: docs})
	require.NoError(t, err)

	var filters []*types.Document

	for _, f := range []string{"v", odd, "_id"} {
		for i, x := range values {
			y := values[(i*7+3)%len(values)]
			filters = append(filters,
				must.NotFail(types.NewDocument(f, x)),
				must.NotFail(types.NewDocument(f, must.NotFail(types.NewDocument("$eq", x)))),
				must.NotFail(types.NewDocument(f, must.NotFail(types.NewDocument("$in", must.NotFail(types.NewArray(x, y)))))),
				must.NotFail(types.NewDocument(f, must.NotFail(types.NewDocument("$gte", x, "$lt", y)))),
				must.NotFail(types.NewDocument(f, must.NotFail(types.NewDocument("$gt", x)), "s", must.NotFail(types.NewDocument("$lte", "b")))),
			)

			for _, op := range []string{"$gt", "$gte", "$lt", "$lte"} {
				filters = append(filters, must.NotFail(types.NewDocument(f, must.NotFail(types.NewDocument(op, x)))))
			}
		}
	}

	for _, id := range []any{int32(7), "id-7", types.ObjectID{0, 8, 1}} {
		filters = append(filters, must.NotFail(types.NewDocument("_id", id)))
	}

	var pushed, matched int

	for _, filter := range filters {
		got := map[string]bool{}
		for _, doc := range einvoiceQuery(t, c, &backends.QueryParams{Filter: filter}) {
			got[types.FormatAnyValue(must.NotFail(doc.Get("_id")))] = true
		}

		if len(got) < len(docs) {
			pushed++
		}

		for _, doc := range docs {
			ok, err := common.FilterDocument(doc, filter)
			require.NoError(t, err)

			if ok {
				matched++
				assert.True(t, got[types.FormatAnyValue(must.NotFail(doc.Get("_id")))], "%s misses %s", types.FormatAnyValue(filter), types.FormatAnyValue(doc))
			}
		}
	}

	t.Logf("%d filters, %d selected fewer rows than the whole collection, %d matches checked", len(filters), pushed, matched)
	assert.Greater(t, pushed, len(filters)/2)

	for _, sort := range [][]backends.SortField{
		{{Field: "s"}}, {{Field: "s", Descending: true}}, {{Field: "n"}}, {{Field: "n", Descending: true}},
		{{Field: "d"}}, {{Field: "d", Descending: true}}, {{Field: "s"}, {Field: "n", Descending: true}},
	} {
		res, err := c.Query(ctx, &backends.QueryParams{FieldSort: sort})
		require.NoError(t, err)
		require.True(t, res.FieldSorted)

		sorted, err := iterator.ConsumeValues(res.Iter)
		require.NoError(t, err)
		require.Len(t, sorted, len(docs))

		sortDoc := types.MakeDocument(len(sort))
		for _, f := range sort {
			sortDoc.Set(f.Field, map[bool]int64{false: 1, true: -1}[f.Descending])
		}

		for i := 1; i < len(sorted); i++ {
			pair := []*types.Document{sorted[i], sorted[i-1]}
			require.NoError(t, common.SortDocuments(pair, sortDoc))
			// the handler's order must not put the later row strictly first
			if pair[0] == sorted[i] && pair[1] == sorted[i-1] {
				for _, f := range sort {
					a, b := must.NotFail(sorted[i-1].Get(f.Field)), must.NotFail(sorted[i].Get(f.Field))
					if types.Compare(a, b) != types.Equal {
						t.Fatalf("sort %v: %s before %s", sort, types.FormatAnyValue(sorted[i-1]), types.FormatAnyValue(sorted[i]))
					}
				}
			}
		}
	}

	res, err := c.Query(ctx, &backends.QueryParams{FieldSort: []backends.SortField{{Field: "unindexed"}}})
	require.NoError(t, err)
	assert.False(t, res.FieldSorted)
	res.Iter.Close()
}

// TestEinvoiceIDsAndCAS checks updates and deletes by _id of every type, compare-and-swap,
// the refusal of arrays in indexed fields, and the uniqueness of the SQL value in the _id index.
func TestEinvoiceIDsAndCAS(t *testing.T) {
	t.Parallel()

	_, c := einvoiceCollection(t, "tags", "a.b")
	ctx := testutil.Ctx(t)

	ids := []any{
		int32(7), 7.5, int64(1) << 60, `q"uo'te\<&>`, types.ObjectID{1, 2, 3}, true, false,
		time.UnixMilli(123456).UTC(), must.NotFail(types.NewDocument("k", "v", "n", int32(2))),
		types.Binary{Subtype: types.BinaryGeneric, B: []byte{1, 2}}, types.Null, 583159883093847808.0,
	}

	docs := make([]*types.Document, len(ids))
	for i, id := range ids {
		docs[i] = must.NotFail(types.NewDocument("_id", id, "n", int32(0)))
	}

	_, err := c.InsertAll(ctx, &backends.InsertAllParams{Docs: docs})
	require.NoError(t, err)

	for i, id := range ids {
		read := einvoiceQuery(t, c, &backends.QueryParams{Filter: must.NotFail(types.NewDocument("_id", id))})
		require.NotEmpty(t, read, "%s", types.FormatAnyValue(id))

		original := read[0]
		for _, d := range read {
			if types.Compare(must.NotFail(d.Get("_id")), id) == types.Equal {
				original = d
			}
		}

		changed := original.DeepCopy()
		changed.Set("n", int32(i+1))

		res, err := c.UpdateAll(ctx, &backends.UpdateAllParams{Docs: []*types.Document{changed}, Originals: []*types.Document{original}})
		require.NoError(t, err)
		assert.Equal(t, int32(1), res.Updated, "%s", types.FormatAnyValue(id))

		// the stored document changed: the same original no longer matches
		stale := original.DeepCopy()
		stale.Set("n", int32(-1))

		res, err = c.UpdateAll(ctx, &backends.UpdateAllParams{Docs: []*types.Document{stale}, Originals: []*types.Document{original}})
		require.NoError(t, err)
		assert.Equal(t, int32(0), res.Updated, "%s", types.FormatAnyValue(id))
	}

	for _, dup := range []any{int32(1), 7.0, int64(7)} { // 1 has the SQL value of true; 7.0 equals 7 in MongoDB too
		_, err = c.InsertAll(ctx, &backends.InsertAllParams{Docs: []*types.Document{must.NotFail(types.NewDocument("_id", dup))}})
		assert.True(t, backends.ErrorCodeIs(err, backends.ErrorCodeInsertDuplicateID), "%s: %v", types.FormatAnyValue(dup), err)
	}

	for _, doc := range []*types.Document{
		must.NotFail(types.NewDocument("_id", "x", "tags", must.NotFail(types.NewArray("a")))),
		must.NotFail(types.NewDocument("_id", "y", "a", must.NotFail(types.NewArray(must.NotFail(types.NewDocument("b", int32(1))))))),
		must.NotFail(types.NewDocument("_id", "z", "a", must.NotFail(types.NewDocument("b", must.NotFail(types.NewArray()))))),
	} {
		_, err = c.InsertAll(ctx, &backends.InsertAllParams{Docs: []*types.Document{doc}})
		assert.ErrorContains(t, err, "refuses arrays in indexed fields")
	}

	_, err = c.InsertAll(ctx, &backends.InsertAllParams{Docs: []*types.Document{
		must.NotFail(types.NewDocument("_id", "ok", "a", int32(1), "other", must.NotFail(types.NewArray("a")))),
		must.NotFail(types.NewDocument("_id", "ok2", "p", must.NotFail(types.NewDocument("q", must.NotFail(types.NewArray()))))),
	}})
	require.NoError(t, err)

	for _, field := range []string{"other", "p.q"} { // an index on "p" is fine: p holds a document
		_, err = c.CreateIndexes(ctx, &backends.CreateIndexesParams{Indexes: []backends.IndexInfo{
			{Name: field, Key: []backends.IndexKeyPair{{Field: field}}},
		}})
		assert.ErrorContains(t, err, "refuses arrays in indexed fields", "%s", field)
	}

	res, err := c.DeleteAll(ctx, &backends.DeleteAllParams{IDs: append(ids, "ok", "ok2", "missing")})
	require.NoError(t, err)
	assert.Equal(t, int32(len(ids)+2), res.Deleted)
	assert.Empty(t, einvoiceQuery(t, c, nil))
}
