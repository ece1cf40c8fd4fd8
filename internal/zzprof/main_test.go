package prof
import ("testing";"io";"xcvr/internal/cli";"time")
func TestProf(t *testing.T){
 t0:=time.Now()
 rc:=cli.Main([]string{"explain","--clean-env","--config","/tmp/hostile/unk10k.yaml"},nil,io.Discard,io.Discard,nil)
 t.Log(time.Since(t0), rc)
}
