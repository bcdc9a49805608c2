// einvoice build of FerretDB: atomic single-document updates (compare-and-swap).
// This file is not part of FerretDB; stack/tools.ts copies it into the module at build time.

package common

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/handler/handlererrors"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// casMaxAttempts bounds how often one document is re-read after lost races before WriteConflict.
const casMaxAttempts = 100

// errWriteConflict is MongoDB's WriteConflict (code 112).
var errWriteConflict = handlererrors.NewCommandErrorMsg(
	handlererrors.ErrorCode(112),
	"WriteConflict: the document was changed concurrently too many times; retry the operation",
)

// casWriter writes the documents that UpdateDocument changes only if they are still stored as they
// were read, so that concurrent updates of one document do not overwrite each other and a filter that
// matched when the document was read still holds when it is written.
//
// On a lost race, a single-document update runs its query again (filter, and sort for findAndModify)
// and goes on with the first document that matches now, if any, as MongoDB does; an update of many
// documents re-reads that document by _id and goes on with it if it still matches.
// A single-document update closes its query's rows once it has its candidate: the rows hold one of the
// SQLite pool's connections, and the write needs another one.
//
// Backends that ignore UpdateAllParams.Originals (PostgreSQL) keep their unconditional writes;
// a document deleted meanwhile then also counts as not matched.
type casWriter struct {
	ctx   context.Context
	c     backends.Collection
	param *Update

	original *types.Document // the current document as read
	reread   *types.Document // many documents: to process next, after a lost race
	requery  bool            // single document: find the candidate again, after a lost race
	attempts int
}

// newCASWriter returns a casWriter for one UpdateDocument call.
func newCASWriter(ctx context.Context, c backends.Collection, param *Update) *casWriter {
	return &casWriter{ctx: ctx, c: c, param: param}
}

// next returns the document to process next. A single-document update ends after its first match.
func (w *casWriter) next(iter types.DocumentsIterator, result *UpdateResult) (struct{}, *types.Document, error) {
	var doc *types.Document
	var err error

	switch {
	case w.reread != nil:
		doc, w.reread = w.reread, nil
	case !w.param.Multi && result.Matched.Count > 0:
		return struct{}{}, nil, iterator.ErrIteratorDone
	case w.requery:
		w.requery = false
		doc, err = w.first()
	default:
		_, doc, err = iter.Next()
		w.attempts = 0

		if !w.param.Multi {
			iter.Close()
		}
	}

	if err == nil {
		w.original = doc.DeepCopy()
	}

	return struct{}{}, doc, err
}

// first runs the update's query again and returns its first document, or ErrIteratorDone.
func (w *casWriter) first() (*types.Document, error) {
	qr, err := w.c.Query(w.ctx, &backends.QueryParams{Filter: w.param.Filter})
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	closer := iterator.NewMultiCloser(qr.Iter)
	defer closer.Close()

	iter, err := SortIterator(FilterIterator(qr.Iter, closer, w.param.Filter), closer, w.param.Sort)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	_, doc, err := iter.Next()

	return doc, err
}

// write stores doc, the update of the document last returned by next, if that is still stored as read.
// It returns false on a lost race; next then returns the document to try again with, if any.
func (w *casWriter) write(doc *types.Document) (bool, error) {
	res, err := w.c.UpdateAll(w.ctx, &backends.UpdateAllParams{
		Docs:      []*types.Document{doc},
		Originals: []*types.Document{w.original},
	})
	if err != nil {
		return false, lazyerrors.Error(err)
	}

	if res.Updated > 0 {
		return true, nil
	}

	if w.attempts++; w.attempts >= casMaxAttempts {
		return false, errWriteConflict
	}

	// a little jitter spreads out writers that lost to each other
	time.Sleep(rand.N(time.Duration(w.attempts) * 50 * time.Microsecond))

	if !w.param.Multi {
		w.requery = true
		return false, nil
	}

	id := must.NotFail(w.original.Get("_id"))

	qr, err := w.c.Query(w.ctx, &backends.QueryParams{Filter: must.NotFail(types.NewDocument("_id", id))})
	if err != nil {
		return false, lazyerrors.Error(err)
	}

	defer qr.Iter.Close()

	for {
		_, d, err := qr.Iter.Next()
		if errors.Is(err, iterator.ErrIteratorDone) {
			return false, nil // deleted meanwhile
		}

		if err != nil {
			return false, lazyerrors.Error(err)
		}

		// the query may return other documents too
		if types.Compare(must.NotFail(d.Get("_id")), id) != types.Equal {
			continue
		}

		matches, err := FilterDocument(d, w.param.Filter)
		if err != nil {
			return false, lazyerrors.Error(err)
		}

		if matches {
			w.reread = d
		}

		return false, nil
	}
}
