// einvoice build of FerretDB: SQLite collection methods that use the pushdown and the indexes.
// This file is not part of FerretDB; stack/tools.ts copies it into the module at build time,
// and renames FerretDB's own versions of these methods to upstream* (see stack/ferretdb/edits.ts).

package sqlite

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/handlererrors"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// Query implements backends.Collection interface.
func (c *collection) Query(ctx context.Context, params *backends.QueryParams) (*backends.QueryResult, error) {
	db := c.r.DatabaseGetExisting(ctx, c.dbName)
	meta := c.r.CollectionGet(ctx, c.dbName, c.name)

	if db == nil || meta == nil {
		return &backends.QueryResult{Iter: newQueryIterator(ctx, nil, params.OnlyRecordIDs)}, nil
	}

	p := newPushdown(meta, params.Filter, params.Sort, params.FieldSort)
	q := prepareSelectClause(meta.TableName, params.Comment, meta.Capped(), params.OnlyRecordIDs) + p.where + p.orderBy
	args := p.args

	if params.Limit != 0 {
		q += ` LIMIT ?`
		args = append(args, params.Limit)
	}

	// The rows are read one by one as the handler's iterators ask for documents,
	// and closed when the cursor is; a sorted page stops reading after its last document.
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	iter := newQueryIterator(ctx, rows, params.OnlyRecordIDs)

	// A lookup by _id or another unique key is read at once, and its connection given back to the pool
	// before the write that often follows (findAndModify, a multi-document update) asks for another one:
	// with all of the pool's 100 connections held by such reads, a burst of writes would wait forever.
	if p.fewRows {
		docs, err := iterator.ConsumeValues(iter)
		if err != nil {
			return nil, lazyerrors.Error(err)
		}

		iter = iterator.Values(iterator.ForSlice(docs))
	}

	return &backends.QueryResult{Iter: iter, FieldSorted: p.fieldSorted}, nil
}

// Explain implements backends.Collection interface.
//
// QueryPlanner holds the SQL and SQLite's EXPLAIN QUERY PLAN lines
// (see https://www.sqlite.org/eqp.html), such as "SEARCH … USING INDEX …" or "SCAN …".
func (c *collection) Explain(ctx context.Context, params *backends.ExplainParams) (*backends.ExplainResult, error) {
	db := c.r.DatabaseGetExisting(ctx, c.dbName)
	meta := c.r.CollectionGet(ctx, c.dbName, c.name)

	if db == nil || meta == nil {
		return &backends.ExplainResult{QueryPlanner: must.NotFail(types.NewDocument())}, nil
	}

	p := newPushdown(meta, params.Filter, params.Sort, params.FieldSort)
	q := prepareSelectClause(meta.TableName, "", meta.Capped(), false) + p.where + p.orderBy
	args := p.args

	if params.Limit != 0 {
		q += ` LIMIT ?`
		args = append(args, params.Limit)
	}

	rows, err := db.QueryContext(ctx, `EXPLAIN QUERY PLAN `+q, args...)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}
	defer rows.Close()

	plan := types.MakeArray(0)

	for rows.Next() {
		var id, parent, notused int32
		var detail string

		if err = rows.Scan(&id, &parent, &notused, &detail); err != nil {
			return nil, lazyerrors.Error(err)
		}

		plan.Append(fmt.Sprintf("id=%d parent=%d notused=%d detail=%s", id, parent, notused, detail))
	}

	if err = rows.Err(); err != nil {
		return nil, lazyerrors.Error(err)
	}

	return &backends.ExplainResult{
		QueryPlanner:   must.NotFail(types.NewDocument("SQL", q, "Plan", plan)),
		FilterPushdown: p.where != "",
		SortPushdown:   p.orderBy != "",
		LimitPushdown:  params.Limit != 0,
	}, nil
}

// InsertAll implements backends.Collection interface.
func (c *collection) InsertAll(ctx context.Context, params *backends.InsertAllParams) (*backends.InsertAllResult, error) {
	if meta := c.r.CollectionGet(ctx, c.dbName, c.name); meta != nil {
		if err := refuseArrays(meta, params.Docs); err != nil {
			return nil, err
		}
	}

	return c.upstreamInsertAll(ctx, params)
}

// UpdateAll implements backends.Collection interface.
//
// It finds each document by _id with the _id index. If params.Originals holds the document as it
// was read, the row is written only if it is still stored exactly so (compare-and-swap);
// a document that was changed or deleted since is not counted in Updated.
// sjson.Marshal is deterministic, so the original marshals to the very text that was read
// (TestEinvoiceRoundTrip checks it); were it ever not so, updates of that document would end
// in WriteConflict, never overwrite a change.
func (c *collection) UpdateAll(ctx context.Context, params *backends.UpdateAllParams) (*backends.UpdateAllResult, error) {
	var res backends.UpdateAllResult

	db := c.r.DatabaseGetExisting(ctx, c.dbName)
	meta := c.r.CollectionGet(ctx, c.dbName, c.name)

	if db == nil || meta == nil {
		return &res, nil
	}

	if err := refuseArrays(meta, params.Docs); err != nil {
		return nil, err
	}

	err := db.InTransaction(ctx, func(tx *fsql.Tx) error {
		for i, doc := range params.Docs {
			b, err := sjson.Marshal(doc)
			if err != nil {
				return lazyerrors.Error(err)
			}

			cond, idArgs := idCondition([]any{must.NotFail(doc.Get("_id"))})
			q := fmt.Sprintf(`UPDATE %q SET %s = ? WHERE %s`, meta.TableName, metadata.DefaultColumn, cond)
			args := append([]any{string(b)}, idArgs...)

			if i < len(params.Originals) && params.Originals[i] != nil {
				ob, err := sjson.Marshal(params.Originals[i])
				if err != nil {
					return lazyerrors.Error(err)
				}

				q += fmt.Sprintf(` AND %s = ?`, metadata.DefaultColumn)
				args = append(args, string(ob))
			}

			r, err := tx.ExecContext(ctx, q, args...)
			if err != nil {
				return lazyerrors.Error(err)
			}

			ra, err := r.RowsAffected()
			if err != nil {
				return lazyerrors.Error(err)
			}

			res.Updated += int32(ra)
		}

		return nil
	})
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	return &res, nil
}

// DeleteAll implements backends.Collection interface.
//
// Deletion by _id uses the _id index; deletion by record ID is FerretDB's own.
func (c *collection) DeleteAll(ctx context.Context, params *backends.DeleteAllParams) (*backends.DeleteAllResult, error) {
	if params.RecordIDs != nil {
		return c.upstreamDeleteAll(ctx, params)
	}

	db := c.r.DatabaseGetExisting(ctx, c.dbName)
	meta := c.r.CollectionGet(ctx, c.dbName, c.name)

	if db == nil || meta == nil {
		return &backends.DeleteAllResult{Deleted: 0}, nil
	}

	var deleted int32

	err := db.InTransaction(ctx, func(tx *fsql.Tx) error {
		for ids := range slices.Chunk(params.IDs, 500) {
			cond, args := idCondition(ids)

			r, err := tx.ExecContext(ctx, fmt.Sprintf(`DELETE FROM %q WHERE %s`, meta.TableName, cond), args...)
			if err != nil {
				return lazyerrors.Error(err)
			}

			ra, err := r.RowsAffected()
			if err != nil {
				return lazyerrors.Error(err)
			}

			deleted += int32(ra)
		}

		return nil
	})
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	return &backends.DeleteAllResult{Deleted: deleted}, nil
}

// CreateIndexes implements backends.Collection interface.
//
// It refuses an index on a field in which a stored document holds an array (see refuseArrays).
func (c *collection) CreateIndexes(ctx context.Context, params *backends.CreateIndexesParams) (*backends.CreateIndexesResult, error) { //nolint:lll // for readability
	db := c.r.DatabaseGetExisting(ctx, c.dbName)
	meta := c.r.CollectionGet(ctx, c.dbName, c.name)

	if db != nil && meta != nil {
		for _, index := range params.Indexes {
			if slices.ContainsFunc(meta.Settings.Indexes, func(i metadata.IndexInfo) bool { return i.Name == index.Name }) {
				continue
			}

			info := metadata.IndexInfo{Name: index.Name}
			for _, key := range index.Key {
				info.Key = append(info.Key, metadata.IndexKeyPair{Field: key.Field})
			}

			field, err := metadata.FieldWithArrays(ctx, db, meta.TableName, info)
			if err != nil {
				return nil, lazyerrors.Error(err)
			}

			if field != "" {
				return nil, handlererrors.NewCommandErrorMsg(handlererrors.ErrBadValue, fmt.Sprintf(
					"einvoice FerretDB build: cannot create index %q: some documents hold an array in field %q, "+
						"and this build refuses arrays in indexed fields (its SQL compares them as single values)",
					index.Name, field,
				))
			}
		}
	}

	return c.upstreamCreateIndexes(ctx, params)
}

// idCondition returns an SQL condition that selects the documents with the given _id values.
//
// The first part finds the SQL values of the ids in the _id index, which is on the same expression;
// SQLite computes them from the ids' JSON text (`? ->> '$'`) exactly as it does for stored documents
// (a null _id has the SQL value NULL, which IN never matches: IS NULL finds it).
// The second part compares the JSON text of the _id, as FerretDB always did, and keeps the exact
// type: an int 1 and true have the same SQL value but not the same JSON text.
func idCondition(ids []any) (string, []any) {
	var values, texts []string
	var valueArgs, textArgs []any

	expr := metadata.FieldExpression("_id")
	null := ""

	for _, id := range ids {
		j := string(must.NotFail(sjson.MarshalSingleValue(id)))

		if id == types.Null {
			null = ` OR ` + expr + ` IS NULL`
		} else {
			values = append(values, `(? ->> '$')`)
			valueArgs = append(valueArgs, j)
		}

		texts = append(texts, `?`)
		textArgs = append(textArgs, j)
	}

	cond := fmt.Sprintf(
		`(%s IN (%s)%s) AND %s IN (%s)`,
		expr, strings.Join(values, ", "), null, metadata.IDColumn, strings.Join(texts, ", "),
	)

	return cond, append(valueArgs, textArgs...)
}

// refuseArrays returns an error the client sees if a document holds an array in a field that an index
// of the collection covers, at any level of the key's dotted path.
//
// The pushdown compares indexed fields as single SQL values: an array there would make it miss
// documents that MongoDB matches (multikey indexes are not supported by this build).
func refuseArrays(meta *metadata.Collection, docs []*types.Document) error {
	for _, index := range meta.Settings.Indexes {
		for _, key := range index.Key {
			path := strings.Split(key.Field, ".")

			for _, doc := range docs {
				if !holdsArray(doc, path) {
					continue
				}

				id, _ := doc.Get("_id")

				return handlererrors.NewCommandErrorMsg(handlererrors.ErrBadValue, fmt.Sprintf(
					"einvoice FerretDB build: the document with _id %s holds an array in field %q, which index %q covers; "+
						"this build refuses arrays in indexed fields (its SQL compares them as single values)",
					types.FormatAnyValue(id), key.Field, index.Name,
				))
			}
		}
	}

	return nil
}

// holdsArray reports whether an array is stored at the path or at one of its prefixes.
func holdsArray(v any, path []string) bool {
	doc, ok := v.(*types.Document)
	if !ok || len(path) == 0 {
		return false
	}

	values := doc.Values()

	for i, key := range doc.Keys() {
		if key != path[0] {
			continue
		}

		if _, ok := values[i].(*types.Array); ok || holdsArray(values[i], path[1:]) {
			return true
		}
	}

	return false
}
