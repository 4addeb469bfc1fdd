package chattmpl

import (
	"fmt"
	"strings"
	"time"
)

// strftime formats t like Python's datetime.strftime on glibc (the C
// library Hugging Face runs on in practice), for the directives chat
// templates use. glibc's "-" flag (no padding, e.g. "%-d") is supported.
// An unknown directive is copied through unchanged, as glibc does.
func strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		noPad := false
		if format[i] == '-' && i+1 < len(format) {
			noPad = true
			i++
		}
		num := func(v, width int, pad byte) {
			s := fmt.Sprint(v)
			if !noPad {
				for len(s) < width {
					s = string(pad) + s
				}
			}
			b.WriteString(s)
		}
		switch format[i] {
		case 'a':
			b.WriteString(t.Weekday().String()[:3])
		case 'A':
			b.WriteString(t.Weekday().String())
		case 'b', 'h':
			b.WriteString(t.Month().String()[:3])
		case 'B':
			b.WriteString(t.Month().String())
		case 'c':
			b.WriteString(strftime("%a %b %e %H:%M:%S %Y", t))
		case 'C':
			num(t.Year()/100, 2, '0')
		case 'd':
			num(t.Day(), 2, '0')
		case 'D':
			b.WriteString(strftime("%m/%d/%y", t))
		case 'e':
			num(t.Day(), 2, ' ')
		case 'F':
			b.WriteString(strftime("%Y-%m-%d", t))
		case 'f':
			num(t.Nanosecond()/1000, 6, '0')
		case 'H':
			num(t.Hour(), 2, '0')
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			num(h, 2, '0')
		case 'j':
			num(t.YearDay(), 3, '0')
		case 'k':
			num(t.Hour(), 2, ' ')
		case 'l':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			num(h, 2, ' ')
		case 'm':
			num(int(t.Month()), 2, '0')
		case 'M':
			num(t.Minute(), 2, '0')
		case 'n':
			b.WriteByte('\n')
		case 'p':
			if t.Hour() < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'R':
			b.WriteString(strftime("%H:%M", t))
		case 'S':
			num(t.Second(), 2, '0')
		case 's':
			b.WriteString(fmt.Sprint(t.Unix()))
		case 't':
			b.WriteByte('\t')
		case 'T':
			b.WriteString(strftime("%H:%M:%S", t))
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			num(wd, 1, '0')
		case 'w':
			num(int(t.Weekday()), 1, '0')
		case 'U':
			num((t.YearDay()+6-int(t.Weekday()))/7, 2, '0')
		case 'W':
			num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2, '0')
		case 'x':
			b.WriteString(strftime("%m/%d/%y", t))
		case 'X':
			b.WriteString(strftime("%H:%M:%S", t))
		case 'y':
			num(t.Year()%100, 2, '0')
		case 'Y':
			num(t.Year(), 1, '0')
		case 'z':
			b.WriteString(t.Format("-0700"))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case '%':
			b.WriteByte('%')
		default:
			b.WriteString(format[start : i+1])
		}
	}
	return b.String()
}
