import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPACING_STEP_PX, theme, TYPE_SCALE_PX } from './theme';

const px = (value: string | undefined) => Number(/^(\d+)px$/.exec(value ?? '')?.[1]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.(tsx|css)$/.test(entry.name) && !/\.test\./.test(entry.name) ? [file] : [];
  });
}

const WEB_DIR = path.resolve(import.meta.dirname, '..');
const onScale = (size: number) => (TYPE_SCALE_PX as readonly number[]).includes(size);

describe('one type scale and one spacing scale', () => {
  it('the theme sizes text and headings on the type scale, and spaces in 4 px steps', () => {
    for (const [name, size] of Object.entries(theme.fontSizes ?? {})) expect(onScale(px(size)), `fontSizes.${name}`).toBe(true);
    for (const [name, heading] of Object.entries(theme.headings?.sizes ?? {})) expect(onScale(px(heading?.fontSize)), name).toBe(true);
    for (const [name, space] of Object.entries(theme.spacing ?? {})) expect(px(space) % SPACING_STEP_PX, `spacing.${name}`).toBe(0);
  });

  it('no component sets a font size off the scale, or a spacing off the 4 px steps', () => {
    const wrong: string[] = [];
    for (const file of sources(WEB_DIR)) {
      const text = readFileSync(file, 'utf8');
      const where = path.relative(WEB_DIR, file);
      for (const [, size] of text.matchAll(/\bfz=\{(\d+)\}/g)) if (!onScale(Number(size))) wrong.push(`${where}: fz={${size}}`);
      for (const [, size] of text.matchAll(/font-size:\s*(\d+)px/g)) if (!onScale(Number(size))) wrong.push(`${where}: font-size ${size}px`);
      const spacingProps = /\b(gap|spacing|verticalSpacing|rowGap|columnGap|p[xytblr]?|m[xytblr]?)=\{(\d+)\}/g;
      for (const [, prop, value] of text.matchAll(spacingProps)) if (Number(value) % SPACING_STEP_PX) wrong.push(`${where}: ${prop}={${value}}`);
      for (const [, prop, value] of text.matchAll(/\b(gap|padding[a-z-]*|margin[a-z-]*):\s*(\d+)px/g)) {
        if (Number(value) % SPACING_STEP_PX) wrong.push(`${where}: ${prop}: ${value}px`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
