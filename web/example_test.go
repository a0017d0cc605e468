package web_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/boardhall/boardhall/web"
)

// A room link is answered with the client's index.html; the client reads the
// room id from the path.
func ExampleHandler() {
	rec := httptest.NewRecorder()
	web.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/r/q7dk2m9xta", nil))
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Cache-Control"))
	// Output: 200 text/html; charset=utf-8 no-cache
}
