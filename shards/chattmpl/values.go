package chattmpl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"

	"github.com/nikolalohinski/gonja/v2/exec"
)

// noneType gives Python's None its own Go type. gonja represents both None
// and an undefined variable as "no value"; a typed nil pointer still looks
// like nil to every gonja builtin (Value.IsNil is true), but our own filters
// and tests can tell it apart from a missing variable, which Jinja2 treats
// differently (iterating None is an error, iterating Undefined is not).
type noneType struct{}

// None is the value templates see for Python's None.
func none() *noneType { return nil }

var noneGoType = reflect.TypeFor[*noneType]()

// isNone reports whether v holds the None sentinel.
func isNone(v *exec.Value) bool {
	return v != nil && v.Val.IsValid() && v.Val.Type() == noneGoType
}

// isUndefined reports whether v is gonja's "no value" that is not None:
// an undefined variable, a missing key or attribute.
func isUndefined(v *exec.Value) bool {
	return v == nil || !v.Val.IsValid()
}

// Object is a JSON object that keeps its key order, as a Python dict built by
// json.loads does. Templates that print tool schemas with tojson depend on it.
type Object []Member

// Member is one key/value pair of an Object.
type Member struct {
	Key   string
	Value any
}

// DecodeJSON decodes one JSON value the way Python's json.loads does:
// objects become Object (key order kept), arrays []any, integers int,
// other numbers float64, null nil.
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, fmt.Errorf("decode JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("decode JSON: unexpected data after the top-level value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := Object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is %T, not a string", kt)
				}
				val, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				obj = append(obj, Member{Key: key, Value: val})
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		case '[':
			arr := []any{}
			for dec.More() {
				val, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, val)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		}
		return nil, fmt.Errorf("unexpected delimiter %q", t)
	case json.Number:
		s := t.String()
		if !strings.ContainsAny(s, ".eE") {
			if i, err := t.Int64(); err == nil {
				return int(i), nil
			}
		}
		f, err := t.Float64()
		if err != nil {
			return nil, fmt.Errorf("number %s: %w", s, err)
		}
		return f, nil
	default:
		// string, bool or nil
		return t, nil
	}
}

// MessagesFromJSON decodes a JSON array of OpenAI-style chat messages.
// "role" must be a string; "content" may be a string (kept in Content), or
// null or a list of parts (kept as Extra["content"], which the template then
// sees instead). Every other key goes to Extra.
func MessagesFromJSON(data []byte) ([]Message, error) {
	v, err := DecodeJSON(data)
	if err != nil {
		return nil, fmt.Errorf("messages: %w", err)
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("messages: top-level JSON value is not an array")
	}
	msgs := make([]Message, 0, len(arr))
	for i, item := range arr {
		obj, ok := item.(Object)
		if !ok {
			return nil, fmt.Errorf("messages[%d]: not a JSON object", i)
		}
		var m Message
		hasRole := false
		for _, mem := range obj {
			switch mem.Key {
			case "role":
				s, ok := mem.Value.(string)
				if !ok {
					return nil, fmt.Errorf("messages[%d]: role is not a string", i)
				}
				m.Role, hasRole = s, true
			case "content":
				if s, ok := mem.Value.(string); ok {
					m.Content = s
					continue
				}
				fallthrough
			default:
				if m.Extra == nil {
					m.Extra = map[string]any{}
				}
				m.Extra[mem.Key] = mem.Value
			}
		}
		if !hasRole {
			return nil, fmt.Errorf("messages[%d]: no role", i)
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// toTemplate converts a Go value given by the caller into what templates
// see: Go nil → None, Object and maps → ordered gonja dicts (maps in sorted
// key order, since Go maps have none), slices → []any, integers → int.
func toTemplate(v any) (any, error) {
	switch t := v.(type) {
	case nil:
		return none(), nil
	case string, bool, int, float64:
		return t, nil
	case int8, int16, int32, int64, uint8, uint16, uint32, uint64, uint:
		return int(reflect.ValueOf(t).Convert(reflect.TypeFor[int64]()).Int()), nil
	case float32:
		return float64(t), nil
	case Object:
		d := exec.NewDict()
		for _, m := range t {
			cv, err := toTemplate(m.Value)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", m.Key, err)
			}
			d.Pairs = append(d.Pairs, &exec.Pair{Key: exec.AsValue(m.Key), Value: exec.AsValue(cv)})
		}
		return d, nil
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		d := exec.NewDict()
		for _, k := range keys {
			cv, err := toTemplate(t[k])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			d.Pairs = append(d.Pairs, &exec.Pair{Key: exec.AsValue(k), Value: exec.AsValue(cv)})
		}
		return d, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			cv, err := toTemplate(e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = cv
		}
		return out, nil
	case []string:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = e
		}
		return out, nil
	case []map[string]any:
		out := make([]any, len(t))
		for i, e := range t {
			cv, err := toTemplate(e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = cv
		}
		return out, nil
	}
	// Other slices and string-keyed maps, element by element.
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		out := make([]any, rv.Len())
		for i := range out {
			cv, err := toTemplate(rv.Index(i).Interface())
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = cv
		}
		return out, nil
	case reflect.Map:
		if rv.Type().Key().Kind() == reflect.String {
			m := make(map[string]any, rv.Len())
			for _, k := range rv.MapKeys() {
				m[k.String()] = rv.MapIndex(k).Interface()
			}
			return toTemplate(m)
		}
	case reflect.String:
		return rv.String(), nil
	}
	return nil, fmt.Errorf("unsupported value type %T", v)
}

// messageDict builds the dict a template sees for one message: role and
// content first, then the Extra keys in sorted order. Extra["content"]
// replaces Content (so content can be null or a list of parts).
func messageDict(m Message) (*exec.Dict, error) {
	d := exec.NewDict()
	add := func(k string, v any) error {
		cv, err := toTemplate(v)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		d.Pairs = append(d.Pairs, &exec.Pair{Key: exec.AsValue(k), Value: exec.AsValue(cv)})
		return nil
	}
	if err := add("role", m.Role); err != nil {
		return nil, err
	}
	var content any = m.Content
	if c, ok := m.Extra["content"]; ok {
		content = c
	}
	if err := add("content", content); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(m.Extra))
	for k := range m.Extra {
		if k != "role" && k != "content" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := add(k, m.Extra[k]); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// pyTypeName names a value's type the way Python error messages do.
func pyTypeName(v *exec.Value) string {
	switch {
	case isNone(v):
		return "NoneType"
	case isUndefined(v):
		return "Undefined"
	case v.IsString():
		return "str"
	case v.IsBool():
		return "bool"
	case v.IsInteger():
		return "int"
	case v.IsFloat():
		return "float"
	case v.IsList():
		return "list"
	case v.IsDict():
		return "dict"
	case v.IsCallable():
		return "function"
	}
	return v.Val.Type().String()
}
