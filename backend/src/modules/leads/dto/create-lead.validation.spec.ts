import { BadRequestException } from '@nestjs/common';
import { CreateLeadDto } from './create-lead.dto';
import { AppValidationPipe } from '../../../common/validation.pipe';

const pipe = new AppValidationPipe();
const body = { type: 'body' as const, metatype: CreateLeadDto };

async function messageFor(value: unknown): Promise<string> {
  try {
    await pipe.transform(value, body);
  } catch (err) {
    expect(err).toBeInstanceOf(BadRequestException);
    return ((err as BadRequestException).getResponse() as { message: string }).message;
  }
  throw new Error('expected a validation error');
}

describe('AppValidationPipe', () => {
  it('passes a valid body through as the DTO class', async () => {
    const dto = await pipe.transform({ email: 'a@example.com', name: 'A' }, body);
    expect(dto).toBeInstanceOf(CreateLeadDto);
  });

  it('explains a wrong type before a length rule', async () => {
    expect(await messageFor({ email: 'a@example.com', name: 12 })).toBe('name must be text');
  });

  it('names unknown fields, nested ones by path', async () => {
    expect(await messageFor({ email: 'a@example.com', role: 'admin' })).toBe('Unknown field "role" is not allowed');
    expect(await messageFor({ email: 'a@example.com', attribution: { x: '1' } })).toBe('Unknown field "attribution.x" is not allowed');
  });

  it('refuses control characters in any text field, nested ones by path', async () => {
    expect(await messageFor({ email: 'a@example.com', name: 'A\u0000' })).toBe(
      'name must not contain control characters (such as line breaks or null bytes)',
    );
    expect(await messageFor({ email: 'a@example.com', attribution: { utm_campaign: 'x\u0000' } })).toBe(
      'attribution.utm_campaign must not contain control characters (such as line breaks or null bytes)',
    );
    expect(await messageFor({ email: 'a@example.com', name: `${'n'.repeat(201)}\u0000` })).toBe(
      'name must not contain control characters (such as line breaks or null bytes)',
    );
  });

  it('never quotes back a field name a person could not read', async () => {
    expect(await messageFor({ email: 'a@example.com', 'a\u0000\u202eb': 1 })).toBe('Unknown field with an unusual name is not allowed');
  });

  it('refuses nesting deeper than any form before class-transformer recurses into it', async () => {
    const deep = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as unknown;
    expect(await messageFor({ email: 'a@example.com', name: deep })).toBe('The request body is nested too deeply');
  });

  it('refuses unpaired surrogates, on which the e-mail validator throws', async () => {
    expect(await messageFor({ email: '\udfffa@example.com' })).toBe('Field "email" is not valid text (it has a broken character)');
    expect(await messageFor({ email: 'a@example.com', attribution: { utm_source: 'x\ud800' } })).toBe(
      'Field "attribution.utm_source" is not valid text (it has a broken character)',
    );
  });

  it.each([null, 'text', 42, [{ email: 'a@example.com' }]])('refuses a body that is not an object: %p', async (value) => {
    expect(await messageFor(value)).toBe('The request body must be a JSON object');
  });
});
