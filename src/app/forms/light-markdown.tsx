import { Fragment, type ReactNode } from 'react';

/**
 * What the browser build gives @rjsf/core in place of markdown-to-jsx (webpack.config.ts aliases
 * `markdown-to-jsx/react` here): 82 KB of minified parser, about a third of the form stack, for
 * text no form of ours formats. rjsf renders Markdown only for its own messages (a file's
 * "**name** (type, size bytes)", an unsupported field) and for descriptions and help that opt in
 * with `ui:enableMarkdownInDescription` / `ui:enableMarkdownInHelp`. This renders the inline part
 * those use, **bold** and `code`, and everything else as plain text: never as HTML.
 */
export interface MarkdownProps {
  children?: ReactNode;
  /** markdown-to-jsx's options; none applies to plain text */
  options?: unknown;
  [attribute: string]: unknown;
}

const INLINE = /(\*\*[^*\n]+\*\*|`[^`\n]+`)/;

/** `**bold**` and `` `code` `` as elements, the rest as text. */
export function inlineMarkdown(text: string): ReactNode[] {
  return text.split(INLINE).map((part, i) => {
    if (i % 2 === 0) return <Fragment key={i}>{part}</Fragment>;
    return part.startsWith('**') ? <strong key={i}>{part.slice(2, -2)}</strong> : <code key={i}>{part.slice(1, -1)}</code>;
  });
}

export function Markdown({ children, options: _options, ...attributes }: MarkdownProps) {
  return <span {...(attributes as Record<string, unknown>)}>{typeof children === 'string' ? inlineMarkdown(children) : children}</span>;
}

export default Markdown;
