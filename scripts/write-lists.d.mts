/** Each list's file (from the root) and the text the build writes into it, for the tree at `root`. */
export function lists(root?: string): Record<string, string>;
