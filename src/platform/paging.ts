// How many items a view shows at once before "Show more…": thousands of groups, functions or files stay
// responsive.
export const PAGE_SIZE = 200;
