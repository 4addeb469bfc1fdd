package router

// HoldersOf counts the unexpired announcements of a model in r's view, for
// the external tests.
func HoldersOf(r *Router, digest string) int { return len(r.snapshot()[digest]) }
