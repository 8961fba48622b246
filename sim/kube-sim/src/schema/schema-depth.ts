/**
 * How deep the schema walkers follow a schema. Real CRD schemas are a few dozen levels at most; the
 * cap only keeps a hostile, absurdly nested schema from exhausting the stack. Go's JSON decoder in
 * kube-apiserver stops at 10000 levels of nesting; half of that is still far beyond any real CRD and
 * leaves room for the JavaScript stack.
 */
export const MAX_SCHEMA_DEPTH = 2000;
