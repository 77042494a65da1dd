import { render } from '@react-email/components';
import { createElement } from 'react';
import { step } from '../../scripts/lib/log';
import { emailCopy } from '../../worker/src/messages/email-copy';
import { EMAIL_KINDS, SAMPLE_EMAILS } from '../../worker/src/messages/email-samples';
import { EMAIL_COMPONENTS } from '../../worker/src/messages/layout/email-layout.components';
import { BenchReport, type Row } from './report';

/** What building one e-mail may cost the worker in CPU (issue 38): the layout must not make sending dear. */
const EMAIL_CPU_BUDGET_MS = 0.5;
const WARM_UP = 300;
const ROUNDS = 3_000;

/** CPU milliseconds (user + system, this process) one call of `build` takes, on average. */
async function cpuMsPerCall(build: () => unknown): Promise<number> {
  for (let i = 0; i < WARM_UP; i++) await build();
  const start = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) await build();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / ROUNDS;
}

/**
 * `npm run bench email`: the worker's CPU per e-mail of each kind, built as it is sent (subject,
 * text and HTML from the precompiled layout), against rendering the layout with React Email at
 * send time, which is why the layout is precompiled. Over budget: the verdict says so.
 */
export async function benchEmail(): Promise<boolean> {
  step(`E-mail: ${ROUNDS} builds of each kind, CPU of this process`);
  const report = new BenchReport('email');
  const rows: Row[] = [];
  let worst = 0;
  for (const kind of EMAIL_KINDS) {
    const build = () => SAMPLE_EMAILS[kind](emailCopy);
    const precompiled = await cpuMsPerCall(build);
    const atSendTime = await cpuMsPerCall(async () => [build(), await render(createElement(EMAIL_COMPONENTS.document))]);
    worst = Math.max(worst, precompiled);
    rows.push({ 'e-mail': kind, 'precompiled layout ms': precompiled.toFixed(3), 'React Email render at send ms': atSendTime.toFixed(3) });
  }
  const kept = worst <= EMAIL_CPU_BUDGET_MS;
  report.table(
    `E-mail: worker CPU per e-mail (budget ${EMAIL_CPU_BUDGET_MS} ms) — ${kept ? 'within budget' : 'OVER BUDGET'}`,
    rows,
    'precompiled layout: the whole build of the e-mail as the worker does it (copy, text part, HTML from email-templates.generated.ts)',
    'React Email render at send time: the same plus rendering the layout document with React Email per e-mail (the rejected design)',
  );
  return kept;
}
