import type { FluentIcon } from '@fluentui/react-icons';
import { Apps24Regular } from '@fluentui/react-icons/svg/apps';
import { ArrowSync24Regular } from '@fluentui/react-icons/svg/arrow-sync';
import { BuildingFactory24Regular } from '@fluentui/react-icons/svg/building-factory';
import { ChartMultiple24Regular } from '@fluentui/react-icons/svg/chart-multiple';
import { Chat24Regular } from '@fluentui/react-icons/svg/chat';
import { ClipboardTaskListLtr24Regular } from '@fluentui/react-icons/svg/clipboard-task-list-ltr';
import { Clock24Regular } from '@fluentui/react-icons/svg/clock';
import { DataTrending24Regular } from '@fluentui/react-icons/svg/data-trending';
import { DocumentSearch24Regular } from '@fluentui/react-icons/svg/document-search';
import { DocumentText24Regular } from '@fluentui/react-icons/svg/document-text';
import { EmojiSmileSlight24Regular } from '@fluentui/react-icons/svg/emoji-smile-slight';
import { Flow24Regular } from '@fluentui/react-icons/svg/flow';
import { Lightbulb24Regular } from '@fluentui/react-icons/svg/lightbulb';
import { Mail24Regular } from '@fluentui/react-icons/svg/mail';
import { Money24Regular } from '@fluentui/react-icons/svg/money';
import { PeopleCommunity24Regular } from '@fluentui/react-icons/svg/people-community';
import { Receipt24Regular } from '@fluentui/react-icons/svg/receipt';
import { ReceiptMoney24Regular } from '@fluentui/react-icons/svg/receipt-money';
import { Settings24Regular } from '@fluentui/react-icons/svg/settings';
import { Sparkle24Regular } from '@fluentui/react-icons/svg/sparkle';
import { TagMultiple24Regular } from '@fluentui/react-icons/svg/tag-multiple';
import { VideoClip24Regular } from '@fluentui/react-icons/svg/video-clip';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  tile: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    flexShrink: 0,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground1,
  },
  muted: { backgroundColor: tokens.colorNeutralBackground3, color: tokens.colorNeutralForeground3 },
  img: { objectFit: 'contain' },
});

/** True for values that are pictures themselves (a URL, a path or a data URI). */
export function isImageRef(icon: string | undefined | null): icon is string {
  return !!icon && /^(https?:|data:|\/|\.\/)/.test(icon);
}

/** Keywords (in an icon value or a name) mapped to icons; first match wins. */
const KEYWORDS: Array<[RegExp, FluentIcon]> = [
  [/coming[_ ]?soon/i, Clock24Regular],
  [/reconcil/i, ArrowSync24Regular],
  [/financ(e|ial)[ _-]?analy|report|trend/i, DataTrending24Regular],
  [/expense[ _-]?categor|categor|tag/i, TagMultiple24Regular],
  [/expense|receipt/i, Receipt24Regular],
  [/invoice/i, ReceiptMoney24Regular],
  [/search/i, DocumentSearch24Regular],
  [/audio|video/i, VideoClip24Regular],
  [/emotion|sentiment/i, EmojiSmileSlight24Regular],
  [/document|extract|pdf/i, DocumentText24Regular],
  [/mail|email/i, Mail24Regular],
  [/\bai\b|sparkle/i, Sparkle24Regular],
  [/financ|money/i, Money24Regular],
];

/** The icon for a catalogue entry: its icon value, else its name, else a generic flow icon. */
export function iconFor(icon: string | undefined, name?: string): FluentIcon {
  for (const text of [icon, name]) {
    if (!text || isImageRef(text)) continue;
    const hit = KEYWORDS.find(([re]) => re.test(text));
    if (hit) return hit[1];
  }
  return Flow24Regular;
}

/**
 * A workflow card's icon: the entry's own icon value; for a workflow marked 'coming_soon' (which
 * is a status, not a picture) its name decides (spec section 2, /solution/{id}).
 */
export function workflowIconFor(icon: string | undefined, name: string): FluentIcon {
  return iconFor(icon === 'coming_soon' ? undefined : icon, name);
}

/** Icon sets per solution name (spec section 2, /solutions): Finance, Operations, Customer Experience, default. */
const SOLUTION_ICON_SETS: Record<string, FluentIcon[]> = {
  finance: [Money24Regular, ReceiptMoney24Regular, ChartMultiple24Regular],
  operations: [Settings24Regular, ClipboardTaskListLtr24Regular, BuildingFactory24Regular],
  'customer experience': [PeopleCommunity24Regular, Chat24Regular, EmojiSmileSlight24Regular],
};
const DEFAULT_SOLUTION_ICONS: FluentIcon[] = [Apps24Regular, Flow24Regular, Lightbulb24Regular];

/** The icon set of a solution: by its icon value ('customer_experience'), else by its name. */
export function solutionIconSet(icon: string | undefined, name = ''): FluentIcon[] {
  const key = (k: string) => k.trim().toLowerCase().replace(/_/g, ' ');
  return SOLUTION_ICON_SETS[key(icon ?? '')] ?? SOLUTION_ICON_SETS[key(name)] ?? DEFAULT_SOLUTION_ICONS;
}

/** A square tile with an icon (a Fluent icon, or the picture the icon value points at). */
export function IconTile({
  icon,
  size = 44,
  muted,
  label,
}: {
  icon: FluentIcon | string;
  size?: number;
  muted?: boolean;
  /** alt text for pictures; Fluent icons are decorative */
  label?: string;
}) {
  const s = useStyles();
  const className = mergeClasses(s.tile, muted && s.muted);
  if (typeof icon === 'string') {
    return (
      <span className={className} style={{ width: size, height: size }}>
        <img className={s.img} src={icon} alt={label ?? ''} width={size * 0.6} height={size * 0.6} />
      </span>
    );
  }
  const Icon = icon;
  return (
    <span className={className} style={{ width: size, height: size }} aria-hidden>
      <Icon style={{ fontSize: size * 0.55 }} />
    </span>
  );
}

/** The icon of a combination or workflow: its picture if the value is one, else a keyword icon. */
export function CatalogueIcon({ icon, name, size, muted }: { icon?: string; name?: string; size?: number; muted?: boolean }) {
  return <IconTile icon={isImageRef(icon) ? icon : iconFor(icon, name)} size={size} muted={muted} />;
}
