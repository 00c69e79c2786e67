import { Anchor, List, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A small Markdown renderer for the notices a university writes: headings (#, ##, ###),
 * paragraphs, bulleted and numbered lists, links [text](https://...), **strong** and *emphasis*.
 * It builds React elements from the text, never HTML: a tag in the file is shown as text, and a
 * link is kept only when it is http(s), mailto: or a path of the portal.
 */
export function Markdown({ source }: { source: string }) {
  return <>{blocks(source)}</>;
}

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] };

export function parseBlocks(source: string): Block[] {
  const result: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  const flush = () => {
    if (paragraph.length > 0) result.push({ kind: 'paragraph', text: paragraph.join(' ') });
    paragraph = [];
    if (list) result.push({ kind: 'list', ...list });
    list = null;
  };
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\d+[.)]\s+(.*)$/.exec(line);
    if (line === '') {
      flush();
    } else if (heading) {
      flush();
      result.push({ kind: 'heading', level: heading[1]!.length, text: heading[2]!.replace(/\s+#+$/, '') });
    } else if (bullet || numbered) {
      const ordered = !bullet;
      if (paragraph.length > 0 || (list && list.ordered !== ordered)) flush();
      list ??= { ordered, items: [] };
      list.items.push((bullet ?? numbered)![1]!);
    } else if (list && raw.startsWith(' ')) {
      // An item's continuation line.
      list.items[list.items.length - 1] += ` ${line}`;
    } else {
      if (list) flush();
      paragraph.push(line);
    }
  }
  flush();
  return result;
}

function blocks(source: string): ReactNode[] {
  return parseBlocks(source).map((block, index) => {
    if (block.kind === 'heading') {
      // The page's own title is the h1; the file's levels follow below it, at most h4.
      const order = Math.min(block.level, 4) as 1 | 2 | 3 | 4;
      return (
        <Title key={index} order={order} mt={index === 0 ? 0 : 'md'}>
          {inline(block.text)}
        </Title>
      );
    }
    if (block.kind === 'list') {
      return (
        <List key={index} type={block.ordered ? 'ordered' : 'unordered'} spacing={4} withPadding>
          {block.items.map((item, i) => (
            <List.Item key={i}>{inline(item)}</List.Item>
          ))}
        </List>
      );
    }
    return <Text key={index}>{inline(block.text)}</Text>;
  });
}

/** A link's address is used only when it is http(s), mailto: or a path of this portal. */
export function safeHref(href: string): string | null {
  if (/^\/(?!\/)/.test(href)) return href;
  try {
    const url = new URL(href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

const INLINE = /\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*]+)\*|_([^_]+)_/g;

function inline(text: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  let key = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    const [, linkText, href, strong1, strong2, em1, em2] = match;
    if (linkText !== undefined && href !== undefined) {
      const safe = safeHref(href);
      const external = safe !== null && /^https?:/.test(safe);
      nodes.push(
        safe ? (
          <Anchor key={key++} href={safe} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
            {inline(linkText)}
          </Anchor>
        ) : (
          linkText
        ),
      );
    } else if (strong1 !== undefined || strong2 !== undefined) {
      nodes.push(<strong key={key++}>{inline((strong1 ?? strong2)!)}</strong>);
    } else {
      nodes.push(<em key={key++}>{inline((em1 ?? em2)!)}</em>);
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}
