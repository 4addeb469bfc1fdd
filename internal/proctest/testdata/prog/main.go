// Command prog is proctest's own test subject: it prints what real programs
// print (a listening URL, a multiaddr), echoes its environment and working
// directory, and exits as told.
package main

import (
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "exit" {
		code, _ := strconv.Atoi(os.Args[2])
		fmt.Println("out:", os.Getenv("PROG_WORD"))
		fmt.Fprintln(os.Stderr, "err: exiting with", code)
		os.Exit(code)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer ln.Close()
	wd, _ := os.Getwd()
	fmt.Fprintf(os.Stderr, "level=INFO msg=\"listening\" url=http://%s/x word=%s\n", ln.Addr(), os.Getenv("PROG_WORD"))
	fmt.Println("dir", wd)
	fmt.Println("/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWTest")
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-sig:
			fmt.Println("terminated")
			os.Exit(0)
		case <-tick.C:
			fmt.Println("tick", i)
		}
	}
}
