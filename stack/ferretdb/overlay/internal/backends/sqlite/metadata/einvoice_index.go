// einvoice build of FerretDB: index expressions that queries can use.
// This file is not part of FerretDB; stack/tools.ts copies it into the module at build time.

package metadata

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// FieldExpression returns the SQL expression for the value at the given dotted path,
// for example `_ferretdb_sjson->>'$."a"."b"'`.
//
// `->>` gives the SQL value (TEXT for strings and ObjectIds, INTEGER or REAL for numbers,
// INTEGER milliseconds for dates, INTEGER 0/1 for booleans, NULL for null or a missing field),
// so that equality and ranges on it can use an index; `->` would give JSON text, which
// orders numbers and escaped strings wrongly. Indexes and queries must use exactly the
// same text, or SQLite does not match them: everything builds it with this function.
func FieldExpression(path string) string {
	return DefaultColumn + "->>" + sqlString(jsonPath(path))
}

// jsonPath returns the SQLite JSON path for the given dotted path, with every label quoted.
//
// SQLite ends a quoted label at the first `"` and unescapes JSON escapes in it,
// so `"` is written as \u0022 and `\` as \\.
func jsonPath(path string) string {
	var b strings.Builder

	b.WriteString("$")

	for _, label := range strings.Split(path, ".") {
		b.WriteString(`."`)

		for i := 0; i < len(label); i++ {
			switch c := label[i]; c {
			case '"':
				b.WriteString(`\u0022`)
			case '\\':
				b.WriteString(`\\`)
			default:
				b.WriteByte(c)
			}
		}

		b.WriteString(`"`)
	}

	return b.String()
}

// sqlString returns s as an SQL string literal.
func sqlString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// ArrayCondition returns an SQL condition that is true when an array is stored
// at the given dotted path or at any of its prefixes.
func ArrayCondition(path string) string {
	labels := strings.Split(path, ".")
	conds := make([]string, len(labels))

	for i := range labels {
		conds[i] = fmt.Sprintf("json_type(%s, %s) = 'array'", DefaultColumn, sqlString(jsonPath(strings.Join(labels[:i+1], "."))))
	}

	return "(" + strings.Join(conds, " OR ") + ")"
}

// querier is implemented by *fsql.DB and *fsql.Tx.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// FieldWithArrays returns the first key field of the index for which some stored document
// holds an array (see ArrayCondition), or "" if there is none.
func FieldWithArrays(ctx context.Context, q querier, tableName string, index IndexInfo) (string, error) {
	for _, key := range index.Key {
		var found bool

		s := fmt.Sprintf("SELECT EXISTS (SELECT 1 FROM %q WHERE %s)", tableName, ArrayCondition(key.Field))
		if err := q.QueryRowContext(ctx, s).Scan(&found); err != nil {
			return "", lazyerrors.Error(err)
		}

		if found {
			return key.Field, nil
		}
	}

	return "", nil
}

// upgradeIndexes rebuilds the indexes that an unpatched FerretDB created on `->` expressions,
// which queries of this build never use, with FieldExpression.
//
// It refuses to start if an indexed field holds an array, because the pushdown of this build
// would then miss documents. If the rebuilt index cannot be created (a unique index whose values
// collide under the new expression, see FieldExpression), the old index is kept and a warning logged.
func (r *Registry) upgradeIndexes(ctx context.Context, db *fsql.DB, colls map[string]*Collection) error {
	for _, c := range colls {
		for _, index := range c.Settings.Indexes {
			name := c.TableName + "_" + index.Name

			var stmt string

			err := db.QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", name).Scan(&stmt)
			if errors.Is(err, sql.ErrNoRows) || strings.Contains(stmt, "->>") {
				continue
			}

			if err != nil {
				return lazyerrors.Error(err)
			}

			field, err := FieldWithArrays(ctx, db, c.TableName, index)
			if err != nil {
				return lazyerrors.Error(err)
			}

			if field != "" {
				return lazyerrors.Errorf(
					"einvoice build: cannot upgrade index %q of collection %q: some documents hold an array in field %q, "+
						"and this build refuses arrays in indexed fields; drop that index or change those documents first",
					index.Name, c.Name, field,
				)
			}

			columns := make([]string, len(index.Key))
			for i, key := range index.Key {
				columns[i] = FieldExpression(key.Field)
				if key.Descending {
					columns[i] += " DESC"
				}
			}

			create := "CREATE INDEX"
			if index.Unique {
				create = "CREATE UNIQUE INDEX"
			}

			err = db.InTransaction(ctx, func(tx *fsql.Tx) error {
				if _, err := tx.ExecContext(ctx, fmt.Sprintf("DROP INDEX %q", name)); err != nil {
					return err
				}

				_, err := tx.ExecContext(ctx, fmt.Sprintf("%s %q ON %q (%s)", create, name, c.TableName, strings.Join(columns, ", ")))

				return err
			})
			if err != nil {
				r.l.WarnContext(
					ctx, "einvoice build: kept an index of an older FerretDB; queries will not use it",
					slog.String("collection", c.Name), slog.String("index", index.Name), slog.String("error", err.Error()),
				)
			}
		}
	}

	return nil
}
