/**
 * Splits groups (each node's templates, in list order) into pages of at most `pageSize` items without
 * splitting a group: a page closes before a group that would overflow it. A group larger than a page gets
 * a page of its own. Answers the range of group indexes of each page.
 */
export function groupPages(
  groupSizes: readonly number[],
  pageSize: number,
): { start: number; end: number }[] {
  const pages: { start: number; end: number }[] = [];
  let start = 0;
  let filled = 0;
  groupSizes.forEach((size, index) => {
    if (index > start && filled + size > pageSize) {
      pages.push({ start, end: index });
      start = index;
      filled = 0;
    }
    filled += size;
  });
  if (groupSizes.length > start) pages.push({ start, end: groupSizes.length });
  return pages;
}
