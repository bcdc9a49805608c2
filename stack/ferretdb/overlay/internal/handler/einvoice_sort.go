// einvoice build of FerretDB: sort pushdown for find.
// This file is not part of FerretDB; stack/tools.ts copies it into the module at build time.

package handler

import (
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/handler/common"
	"github.com/FerretDB/FerretDB/internal/types"
)

// fieldSort returns a validated sort document as backends.QueryParams.FieldSort:
// nil if pushdown is disabled or the sort is empty, $natural, or on a dotted path.
//
// LIMIT is not passed down with it: the pushed-down filter may select extra documents,
// which the handler drops before its limit. With the rows in order, the handler's lazy
// filter and limit iterators stop reading them after the last document of the page.
func (h *Handler) fieldSort(sort *types.Document) []backends.SortField {
	if h.DisablePushdown || sort.Len() == 0 {
		return nil
	}

	res := make([]backends.SortField, sort.Len())
	values := sort.Values()

	for i, field := range sort.Keys() {
		if strings.HasPrefix(field, "$") || strings.Contains(field, ".") {
			return nil
		}

		res[i] = backends.SortField{Field: field, Descending: values[i] == int64(-1)}
	}

	return res
}

// withoutSortIfSorted returns params without the sort when the backend returned the rows in order,
// so that makeFindIter does not read them all to sort them in memory.
func withoutSortIfSorted(params *common.FindParams, res *backends.QueryResult) *common.FindParams {
	if !res.FieldSorted {
		return params
	}

	p := *params
	p.Sort = nil

	return &p
}
