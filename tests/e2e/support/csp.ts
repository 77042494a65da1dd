import type { Page } from '@playwright/test';

export interface Violation {
  directive: string;
  blocked: string;
  source: string;
}

/**
 * Collects every Content-Security-Policy violation of the page: the browser's event (registered
 * before any page script runs) and its console report ("Refused to load / execute / connect…").
 */
export async function watchCsp(page: Page): Promise<Violation[]> {
  const violations: Violation[] = [];
  await page.exposeFunction('__reportCsp', (v: Violation) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      void (window as unknown as { __reportCsp: (v: unknown) => void }).__reportCsp({
        directive: e.violatedDirective,
        blocked: e.blockedURI,
        source: `${e.sourceFile}:${e.lineNumber}`,
      });
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame|create)/i.test(message.text())) {
      violations.push({ directive: 'console', blocked: message.text().slice(0, 300), source: message.location().url });
    }
  });
  return violations;
}

/** The sources a Content-Security-Policy header allows for one directive (undefined when it names none). */
export function cspSources(policy: string | undefined, directive: string): string[] | undefined {
  const found = (policy ?? '')
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === directive);
  return found?.slice(1);
}
