export interface StaticToken {
  token: string;
  username: string;
  uid?: string;
  groups?: string[];
}

/**
 * Parses a kube-apiserver `--token-auth-file`: CSV lines `token,user,uid[,"group1,group2"]`. As in
 * kube-apiserver, a line needs at least three columns, lines with an empty token are skipped, blank
 * lines are ignored and a later duplicate token replaces the earlier one. Throws an Error naming the
 * line on malformed input.
 */
export function parseStaticTokenFile(text: string): StaticToken[] {
  const byToken = new Map<string, StaticToken>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const columns = parseCsvLine(line, i + 1);
    if (columns.length < 3) {
      throw new Error(
        `token file line ${i + 1} must have at least 3 columns (token, user name, user uid), found ${columns.length}`,
      );
    }
    const [token = '', username = '', uid = '', groups] = columns;
    if (token === '') return;
    const entry: StaticToken = { token, username };
    if (uid !== '') entry.uid = uid;
    if (groups !== undefined && groups !== '') entry.groups = groups.split(',');
    byToken.set(token, entry);
  });
  return [...byToken.values()];
}

/** RFC 4180 fields with Go encoding/csv's leniency about leading spaces; quotes may wrap commas. */
function parseCsvLine(line: string, lineNumber: number): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i += 1;
    let field = '';
    if (line[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= line.length) throw new Error(`token file line ${lineNumber}: unterminated quoted field`);
        if (line[i] === '"' && line[i + 1] === '"') {
          field += '"';
          i += 2;
        } else if (line[i] === '"') {
          i += 1;
          break;
        } else {
          field += line.charAt(i);
          i += 1;
        }
      }
      if (i < line.length && line[i] !== ',') {
        throw new Error(`token file line ${lineNumber}: extraneous characters after quoted field`);
      }
    } else {
      const end = line.indexOf(',', i);
      field = end < 0 ? line.slice(i) : line.slice(i, end);
      if (field.includes('"')) throw new Error(`token file line ${lineNumber}: bare " in non-quoted field`);
      i = end < 0 ? line.length : end;
    }
    fields.push(field);
    if (i >= line.length) return fields;
    i += 1;
  }
}
