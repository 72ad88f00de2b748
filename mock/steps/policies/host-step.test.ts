import { expect, test } from 'vitest';
import { hostProblem } from './host-step.ts';

const allowed = ['localhost', '127.0.0.1', '[::1]', 'qa.example.test', '.preview.example.test'];

test('answers allowed names with or without a port, in any case, and requests with no Host', () => {
  for (const host of [
    null,
    'localhost:4010',
    'LOCALHOST',
    '127.0.0.1',
    '[::1]:4010',
    'qa.example.test',
    'a.preview.example.test:1',
  ]) {
    expect(hostProblem(host, allowed), String(host)).toBeUndefined();
  }
});

test('refuses other names, saying how to allow them', () => {
  for (const host of [
    'evil.example',
    'qa.example.test.evil.example',
    'localhost.evil',
    '127.0.0.2',
    '[::2]',
    '',
  ]) {
    expect(hostProblem(host, allowed), host).toContain('--allowed-hosts');
  }
});
