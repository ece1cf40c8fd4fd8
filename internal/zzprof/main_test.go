package prof
import ("testing";"time";"strings";"strconv";"runtime";"xcvr/internal/deploy")
func TestProf(t *testing.T){
 gen := map[string]func(n int) string{
  "seq": func(n int) string { var b strings.Builder; b.WriteString("k:\n"); for i:=0;i<n;i++ { b.WriteString("  - "+strconv.Itoa(i)+"\n") }; return b.String() },
  "flowmap": func(n int) string { var b strings.Builder; b.WriteString("k: {"); for i:=0;i<n;i++ { b.WriteString("k"+strconv.Itoa(i)+": 1,\n") }; b.WriteString("}\n"); return b.String() },
  "flowseq": func(n int) string { var b strings.Builder; b.WriteString("k: ["); for i:=0;i<n;i++ { b.WriteString(strconv.Itoa(i)+",\n") }; b.WriteString("]\n"); return b.String() },
  "seqmaps": func(n int) string { var b strings.Builder; b.WriteString("k:\n"); for i:=0;i<n;i++ { b.WriteString("  - a: "+strconv.Itoa(i)+"\n") }; return b.String() },
 }
 for name, g := range gen { for _, n := range []int{10000, 40000} {
  s := g(n)
  var m0, m1 runtime.MemStats
  runtime.ReadMemStats(&m0)
  t0:=time.Now()
  _, err := deploy.ReadWorkerConfig("x", []byte(s))
  runtime.ReadMemStats(&m1)
  t.Log(name, n, time.Since(t0), err, (m1.TotalAlloc-m0.TotalAlloc)>>20, "MiB")
 }}
}
