import type { Page } from 'playwright-core';

export function chromiumPath(): string | undefined;
export function chromiumMissing(): string | undefined;
export function withPage<T>(
  file: string,
  use: (page: Page, seen: { problems: string[]; requests: string[] }) => Promise<T>,
  opts?: { width?: number; height?: number; offline?: boolean },
): Promise<T>;
