import { ApiError } from '../../api/api-error.js';

export const CLOUD_INIT_DOCUMENTS = ['userData', 'vendorData', 'networkData'] as const;
export type CloudInitDocument = (typeof CLOUD_INIT_DOCUMENTS)[number];

/** One compile problem of a template document, at its line and column when the API gave them. */
export interface DocumentProblem {
  readonly document: CloudInitDocument;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly message: string;
}

/** The API writes a problem's position first: "line 4, column 1: Flow sequence … must end with a ]". */
const POSITION = /^line (\d+), column (\d+): (.*)$/s;

function isDocument(field: string): field is CloudInitDocument {
  return (CLOUD_INIT_DOCUMENTS as readonly string[]).includes(field);
}

/**
 * The problems a refused save (400) or preview (412) names per document, so the editor can mark their
 * lines. Violations of other fields are not compile problems and are left to the form.
 */
export function documentProblems(error: unknown): DocumentProblem[] {
  if (!(error instanceof ApiError)) return [];
  return error.fieldViolations.flatMap((v) => {
    const field = v.field.replace(/^body\./, '');
    if (!isDocument(field)) return [];
    const match = POSITION.exec(v.description);
    return [
      match === null
        ? { document: field, line: undefined, column: undefined, message: v.description }
        : { document: field, line: Number(match[1]), column: Number(match[2]), message: match[3] ?? '' },
    ];
  });
}

/** The [start, end) character offsets of a 1-based line, for selecting it in a textarea. */
export function lineRange(text: string, line: number): readonly [number, number] {
  let start = 0;
  for (let current = 1; current < line; current += 1) {
    const next = text.indexOf('\n', start);
    if (next === -1) return [text.length, text.length];
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return [start, end === -1 ? text.length : end];
}

export const DOCUMENT_LABELS: Readonly<Record<CloudInitDocument, string>> = {
  userData: 'User data',
  vendorData: 'Vendor data',
  networkData: 'Network data',
};
