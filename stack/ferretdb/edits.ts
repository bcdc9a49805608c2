/**
 * The einvoice build of FerretDB: the few edits of FerretDB's own files that the
 * new Go files under ./overlay need (hooks, renames, struct fields). Each `find`
 * must occur exactly once in its file, or the build stops: when FerretDB is
 * bumped, each edit is re-checked by hand instead of landing in the wrong place.
 * The binary's cache directory changes with them (FERRETDB_BUILD_TAG in ./build.ts).
 */

export interface SourceEdit {
  /** Path inside the FerretDB module. */
  file: string;
  find: string;
  replace: string;
}

const COLLECTION_CONTRACT = 'internal/backends/collection.go';
const SQLITE_COLLECTION = 'internal/backends/sqlite/collection.go';
const POSTGRESQL_COLLECTION = 'internal/backends/postgresql/collection.go';

/** Renames FerretDB's method so that the overlay's version of it takes its place. */
function supersede(method: string, overlayFile: string): SourceEdit {
  return {
    file: SQLITE_COLLECTION,
    find: `// ${method} implements backends.Collection interface.\nfunc (c *collection) ${method}(`,
    replace: `// upstream${method} is FerretDB's ${method}, replaced or wrapped by the one in ${overlayFile}.\nfunc (c *collection) upstream${method}(`,
  };
}

export const FERRETDB_EDITS: SourceEdit[] = [
  // Backend contract: a field sort, the flag that it was applied, and the documents as read for compare-and-swap.
  {
    file: COLLECTION_CONTRACT,
    find: 'type QueryParams struct {\n',
    replace:
      'type QueryParams struct {\n' +
      '\t// einvoice: a sort on top-level fields (never with Sort); the backend may apply it (see QueryResult).\n' +
      '\tFieldSort []SortField\n\n',
  },
  {
    file: COLLECTION_CONTRACT,
    find: 'type QueryResult struct {\n',
    replace:
      'type QueryResult struct {\n' +
      '\t// einvoice: true if the rows come back in QueryParams.FieldSort order; the handler then does not sort.\n' +
      '\tFieldSorted bool\n\n',
  },
  {
    file: COLLECTION_CONTRACT,
    find: 'type ExplainParams struct {\n',
    replace: 'type ExplainParams struct {\n\tFieldSort []SortField // einvoice: as QueryParams.FieldSort\n\n',
  },
  {
    file: COLLECTION_CONTRACT,
    find: 'type UpdateAllParams struct {\n',
    replace:
      'type UpdateAllParams struct {\n' +
      '\t// einvoice: Originals[i], if present, is Docs[i] as it was read; the backend may then write it only\n' +
      '\t// if it is still stored so, and not count it in Updated otherwise (compare-and-swap).\n' +
      '\tOriginals []*types.Document\n\n',
  },

  // PostgreSQL backend: the same compare-and-swap as the SQLite overlay's UpdateAll. Without it every update
  // wrote the document it had read whatever happened since: two processes raising one counter lost one $inc, as
  // the production shape's test of two workers counting deliveries showed, and a conditional move could win twice.
  {
    file: POSTGRESQL_COLLECTION,
    find: '\t\tfor _, doc := range params.Docs {\n',
    replace: '\t\tfor i, doc := range params.Docs { // einvoice: i for params.Originals\n',
  },
  {
    file: POSTGRESQL_COLLECTION,
    find: '\t\t\tif tag, err = tx.Exec(ctx, q, b, arg); err != nil {\n',
    replace:
      '\t\t\t// einvoice: with the document as read, written only if it is still stored so (jsonb equality)\n' +
      '\t\t\tif i < len(params.Originals) && params.Originals[i] != nil {\n' +
      '\t\t\t\tvar ob []byte\n' +
      '\t\t\t\tif ob, err = sjson.Marshal(params.Originals[i]); err != nil {\n' +
      '\t\t\t\t\treturn lazyerrors.Error(err)\n' +
      '\t\t\t\t}\n\n' +
      '\t\t\t\ttag, err = tx.Exec(ctx, q+fmt.Sprintf(` AND %s = $3`, metadata.DefaultColumn), b, arg, ob)\n' +
      '\t\t\t} else {\n' +
      '\t\t\t\ttag, err = tx.Exec(ctx, q, b, arg)\n' +
      '\t\t\t}\n\n' +
      '\t\t\tif err != nil {\n',
  },

  // SQLite backend: the overlay's methods use the pushdown, the indexed _id condition and the array check.
  supersede('Query', 'einvoice_collection.go'),
  supersede('Explain', 'einvoice_collection.go'),
  supersede('InsertAll', 'einvoice_collection.go'),
  supersede('UpdateAll', 'einvoice_collection.go'),
  supersede('DeleteAll', 'einvoice_collection.go'),
  supersede('CreateIndexes', 'einvoice_collection.go'),
  {
    file: 'internal/backends/sqlite/metadata/registry.go',
    find:
      '\t\t\tfields := strings.Split(key.Field, ".")\n' +
      '\t\t\tfor j, f := range fields {\n' +
      '\t\t\t\tfields[j] = fmt.Sprintf("%q", f)\n' +
      '\t\t\t}\n\n' +
      '\t\t\tcolumns[i] = fmt.Sprintf("%s->%s", DefaultColumn, strings.Join(fields, "->"))\n',
    replace: '\t\t\tcolumns[i] = FieldExpression(key.Field) // einvoice: the expression queries use\n',
  },
  {
    file: 'internal/backends/sqlite/metadata/registry.go',
    find: '\tr.colls[dbName] = colls\n',
    replace:
      '\tr.colls[dbName] = colls\n\n' +
      '\t// einvoice: rebuild indexes made by an unpatched FerretDB on expressions that queries do not use\n' +
      '\tif err = r.upgradeIndexes(ctx, db, colls); err != nil {\n' +
      '\t\treturn lazyerrors.Error(err)\n' +
      '\t}\n',
  },

  // Handler, updates: compare-and-swap writes, retried on a lost race (einvoice_cas.go).
  {
    file: 'internal/handler/common/update.go',
    find: '\tfor {\n\t\tvar upsert, modified bool\n\n\t\t_, doc, err := iter.Next()\n',
    replace:
      '\tcas := newCASWriter(ctx, c, param) // einvoice\n\n' +
      '\tfor {\n\t\tvar upsert, modified bool\n\n\t\t_, doc, err := cas.next(iter, result)\n',
  },
  {
    file: 'internal/handler/common/update.go',
    find:
      '\t\t\t_, err := c.UpdateAll(ctx, &backends.UpdateAllParams{Docs: []*types.Document{doc}})\n' +
      '\t\t\tif err != nil {\n' +
      '\t\t\t\treturn nil, lazyerrors.Error(err)\n' +
      '\t\t\t}\n',
    replace:
      '\t\t\twritten, err := cas.write(doc) // einvoice: only if unchanged since read\n' +
      '\t\t\tif err != nil {\n' +
      '\t\t\t\treturn nil, lazyerrors.Error(err)\n' +
      '\t\t\t}\n\n' +
      '\t\t\tif !written {\n' +
      '\t\t\t\tresult.Matched.Count-- // re-checked by cas.next, with the document as it is now\n' +
      '\t\t\t\tcontinue\n' +
      '\t\t\t}\n',
  },
  {
    file: 'internal/handler/common/update_params.go',
    find: '\tHasUpdateOperators bool `ferretdb:"-"`\n',
    replace:
      '\tHasUpdateOperators bool `ferretdb:"-"`\n\n' +
      "\t// einvoice: findAndModify's sort, to find the candidate again after a lost race\n" +
      '\tSort *types.Document `ferretdb:"-"`\n',
  },
  {
    file: 'internal/handler/msg_findandmodify.go',
    find: '\t\tHasUpdateOperators: params.HasUpdateOperators,\n\t}\n',
    replace:
      '\t\tHasUpdateOperators: params.HasUpdateOperators,\n\t\tSort:               params.Sort, // einvoice\n\t}\n',
  },
  // FerretDB keeps every statement's read rows open until the whole update command ends:
  // a bulk of more than ~100 statements exhausts the SQLite connection pool and hangs.
  {
    file: 'internal/handler/msg_update.go',
    find: '\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)\n',
    replace:
      '\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)\n' +
      "\t\tcloser.Close() // einvoice: release this statement's rows now (Close is idempotent)\n",
  },
  // Handler, find and explain: pass a field sort down; skip the in-memory sort when the rows come sorted.
  {
    file: 'internal/handler/msg_find.go',
    find: '\t\tqp.Sort = params.Sort\n\t}\n',
    replace:
      '\t\tqp.Sort = params.Sort\n\t}\n\n\tif qp.Sort == nil {\n\t\tqp.FieldSort = h.fieldSort(params.Sort) // einvoice\n\t}\n',
  },
  {
    file: 'internal/handler/msg_find.go',
    find: 'iter, err := h.makeFindIter(queryRes.Iter, closer, params)\n',
    replace: 'iter, err := h.makeFindIter(queryRes.Iter, closer, withoutSortIfSorted(params, queryRes)) // einvoice\n',
  },
  {
    file: 'internal/handler/msg_explain.go',
    find: '\t\tqp.Sort = params.Sort\n\t}\n',
    replace:
      '\t\tqp.Sort = params.Sort\n\t}\n\n' +
      '\tif qp.Sort == nil && !params.Aggregate {\n\t\tqp.FieldSort = h.fieldSort(params.Sort) // einvoice: as find does\n\t}\n',
  },
];
