import { comesFromAnotherSite, isJsonOrBodiless } from './same-site-writes';

const OWN = ['https://shop.example', 'http://127.0.0.1:3000'];

describe('comesFromAnotherSite', () => {
  it.each([
    [{ origin: 'https://evil.example' }, true],
    [{ origin: 'null' }, true],
    [{ origin: 'https://shop.example.evil.example' }, true],
    [{ 'sec-fetch-site': 'cross-site' }, true],
    [{ 'sec-fetch-site': 'same-site' }, true],
    [{ origin: 'https://shop.example', 'sec-fetch-site': 'cross-site' }, true],
    [{ origin: 'https://shop.example' }, false],
    [{ origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' }, false],
    [{ 'sec-fetch-site': 'same-origin' }, false],
    [{ 'sec-fetch-site': 'none' }, false],
    [{}, false],
  ])('%o → %s', (headers, foreign) => {
    expect(comesFromAnotherSite(headers, OWN)).toBe(foreign);
  });
});

describe('isJsonOrBodiless', () => {
  it.each([
    [{ 'content-type': 'application/json' }, true],
    [{ 'content-type': 'Application/JSON; charset=utf-8' }, true],
    [{}, true],
    [{ 'content-length': '0' }, true],
    [{ 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' }, false],
    [{ 'content-type': 'text/plain' }, false],
    [{ 'content-type': 'multipart/form-data; boundary=x' }, false],
    [{ 'content-type': 'application/jsonx' }, false],
    [{ 'content-length': '12' }, false],
    [{ 'transfer-encoding': 'chunked' }, false],
  ])('%o → %s', (headers, accepted) => {
    expect(isJsonOrBodiless(headers)).toBe(accepted);
  });
});
