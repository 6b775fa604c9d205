import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppModalProps } from './app-modal.tsx';

const SRC = path.resolve(import.meta.dirname, '..');
const HELPER_FILES = ['components/app-modal.tsx', 'components/modal-width.ts'];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

const files = sources(SRC)
  .map((file) => ({
    name: path.relative(SRC, file).split(path.sep).join('/'),
    text: fs.readFileSync(file, 'utf8'),
  }))
  .filter((file) => !HELPER_FILES.includes(file.name));

/** The value names (not `type X`) a file imports from antd, or from antd's own modal module. */
function antdModalImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*'(antd[^']*)'/g)) {
    if (match[1]) continue;
    const names = match[2]!
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith('type '));
    if (names.includes('Modal') || /modal/i.test(match[3]!)) found.push(...names);
  }
  for (const match of text.matchAll(/import\s+(\w+)\s+from\s*'(antd\/[^']*modal[^']*)'/gi))
    found.push(match[1]!);
  return found;
}

describe('one way to size a modal', () => {
  it('scans the web app', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.some((file) => file.name === 'components/form/modal-form.tsx')).toBe(true);
  });

  it("no file but AppModal renders antd's Modal", () => {
    const offenders = files.filter((file) => antdModalImports(file.text).length > 0).map((file) => file.name);
    expect(offenders).toEqual([]);
  });

  it('no file but the helper computes a modal width', () => {
    const offenders = files
      .filter((file) => /\b(useModalWidth|modalWidth)\s*\(/.test(file.text))
      .map((file) => file.name);
    expect(offenders).toEqual([]);
  });

  it('no modal is given a width of its own', () => {
    const offenders = files
      .filter((file) => /<(AppModal|ModalForm)\b[^>]*?\bwidth\s*=/s.test(file.text))
      .map((file) => file.name);
    expect(offenders).toEqual([]);
  });

  it('the guard sees an antd Modal import', () => {
    expect(antdModalImports("import { Button, Modal } from 'antd';")).toContain('Modal');
    expect(antdModalImports("import Modal from 'antd/es/modal';")).toEqual(['Modal']);
    expect(antdModalImports("import { Button, type ModalProps } from 'antd';")).toEqual([]);
    expect(antdModalImports("import type { ModalProps } from 'antd';")).toEqual([]);
  });

  it('AppModal takes a size, not a width', () => {
    // @ts-expect-error a width is not a prop: the size picks it (npm run check fails if this compiles)
    const props: AppModalProps = { width: 600 };
    const sized: AppModalProps = { size: '70%/40%' };
    expect([props, sized]).toHaveLength(2);
  });
});
