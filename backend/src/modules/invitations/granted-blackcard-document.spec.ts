import { NotFoundException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BLACKCARD_GRANT } from '@contracts/blackcard-grant';
import { fillGrantedBlackcard, GrantedBlackcardDocument } from './granted-blackcard-document';
import type { InvitationsService } from './invitations.service';
import type { ClientLimiter } from '../../common/client-limiter';

const TEMPLATE = `<html><body><div id="root"><script type="application/json" id="${BLACKCARD_GRANT.elementId}">${BLACKCARD_GRANT.json}</script><h1>Invited</h1></div></body></html>`;
const TOKEN = 'A'.repeat(43);

/** The JSON the browser reads back from the filled document's data block. */
function grantOf(html: string): unknown {
  const body = html.match(/<script type="application\/json" id="blackcard-grant">([\s\S]*?)<\/script>/)?.[1];
  return body === undefined ? undefined : JSON.parse(body);
}

describe('fillGrantedBlackcard', () => {
  it('puts the invitee into the data block, where the browser reads it back unchanged', () => {
    const invitee = { token: TOKEN, email: 'avery+vip@example.com', name: 'Avery Example' };
    const html = fillGrantedBlackcard(TEMPLATE, invitee);
    expect(grantOf(html)).toEqual(invitee);
    expect(html).not.toContain(BLACKCARD_GRANT.json);
    expect(html).toContain('<h1>Invited</h1>');
  });

  it('a name cannot end the script element or open a comment, and `$` patterns stay text', () => {
    const name = "Avery </script><script>alert(1)</script> <!-- $& $' Example";
    const html = fillGrantedBlackcard(TEMPLATE, { token: TOKEN, email: 'a@example.com', name });
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).not.toContain('<!--');
    expect(grantOf(html)).toEqual({ token: TOKEN, email: 'a@example.com', name });
  });
});

describe('GrantedBlackcardDocument', () => {
  let dir: string;
  const invitee = jest.fn<Promise<{ email: string; name: string }>, [string]>();
  const consume = jest.fn<Promise<void>, [string]>();
  const services = () => [{ invitee } as unknown as InvitationsService, { consume } as unknown as ClientLimiter] as const;
  const request = (url: string) => ({ url, ip: '203.0.113.9' }) as FastifyRequest;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'clear-granted-'));
    mkdirSync(join(dir, 'pages'));
    invitee.mockReset();
    consume.mockReset().mockResolvedValue(undefined);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const built = (template = TEMPLATE) => {
    writeFileSync(join(dir, BLACKCARD_GRANT.document), template);
    const document = GrantedBlackcardDocument.fromBuild(dir, ...services());
    if (!document) throw new Error('no document');
    return document;
  };

  it('is absent without a build, and refuses a build without the placeholder', () => {
    expect(GrantedBlackcardDocument.fromBuild(dir, ...services())).toBeNull();
    expect(() => built('<div id="root"></div>')).toThrow(/placeholder/);
  });

  it('a valid query token (trimmed) with a complete invitee: the filled document, the check counted for the client', async () => {
    invitee.mockResolvedValue({ email: 'a@example.com', name: 'Avery' });
    const html = await built().render(request(`/blackcard?x=1&token=%20${TOKEN}%20`));
    expect(grantOf(html ?? '')).toEqual({ token: TOKEN, email: 'a@example.com', name: 'Avery' });
    expect(invitee).toHaveBeenCalledWith(TOKEN);
    expect(consume).toHaveBeenCalledWith('203.0.113.9');
  });

  it("carries the site's run-time settings in its head, put in once from the build", async () => {
    writeFileSync(join(dir, BLACKCARD_GRANT.document), `<html><head></head>${TEMPLATE.slice('<html>'.length)}`);
    const settings = '<script type="application/json" id="site-settings">{"ga4Id":"G-GRANTED"}</script>';
    invitee.mockResolvedValue({ email: 'a@example.com', name: 'Avery' });
    const html = await GrantedBlackcardDocument.fromBuild(dir, ...services(), settings)?.render(request(`/blackcard?token=${TOKEN}`));
    expect(html).toContain(`<html><head>${settings}</head><body>`);
    expect(grantOf(html ?? '')).toEqual({ token: TOKEN, email: 'a@example.com', name: 'Avery' });
  });

  it('no token, an unknown one, an invitee without a name, or too many checks: null (the browser checks)', async () => {
    const document = built();
    expect(await document.render(request('/blackcard'))).toBeNull();
    expect(await document.render(request('/blackcard?token=%20'))).toBeNull();
    expect(consume).not.toHaveBeenCalled();

    invitee.mockRejectedValueOnce(new NotFoundException('This access link is invalid or has expired.'));
    expect(await document.render(request(`/blackcard?token=${TOKEN}`))).toBeNull();
    invitee.mockResolvedValueOnce({ email: 'a@example.com', name: '' });
    expect(await document.render(request(`/blackcard?token=${TOKEN}`))).toBeNull();
    consume.mockRejectedValueOnce(new Error('Redis away'));
    expect(await document.render(request(`/blackcard?token=${TOKEN}`))).toBeNull();
  });
});
