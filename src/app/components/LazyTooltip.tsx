import {
  cloneElement,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
  type FocusEvent,
  type PointerEvent,
  type ReactElement,
} from 'react';
import type { TooltipProps } from '@fluentui/react-components';

type FluentTooltip = ComponentType<TooltipProps>;

/**
 * Fluent's Tooltip with its positioning engine (floating-ui) is a chunk of its own (issue 7,
 * 'Speed'): a tooltip only shows on hover or focus, so no first load needs it. The first hover or
 * focus of any trigger loads it; from then on every LazyTooltip is Fluent's Tooltip.
 */
let loaded: FluentTooltip | null = null;
let loading: Promise<FluentTooltip> | null = null;
function loadTooltip(): Promise<FluentTooltip> {
  loading ??= import(/* webpackChunkName: "tooltip" */ './tooltip-impl').then((m) => (loaded = m.Tooltip as FluentTooltip));
  return loading;
}

type TriggerProps = {
  onPointerEnter?: (e: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (e: PointerEvent<HTMLElement>) => void;
  onFocus?: (e: FocusEvent<HTMLElement>) => void;
  onBlur?: (e: FocusEvent<HTMLElement>) => void;
  ref?: unknown;
};

export interface LazyTooltipProps {
  /** the tooltip's text */
  content: string;
  /** as Fluent's Tooltip: the text names the trigger (aria-label) or describes it (aria-describedby) */
  relationship: 'label' | 'description';
  withArrow?: boolean;
  /** the trigger: one element that takes a ref, focus and pointer handlers */
  children: ReactElement<TriggerProps>;
}

/**
 * A Fluent UI Tooltip that downloads on first use. Before that the trigger already carries what
 * the Tooltip would give it (the aria-label, or the aria-describedby of a hidden copy of the
 * text), so assistive technology reads the same; pointing at or focusing it loads the Tooltip,
 * which then shows at once (the download stands in for the show delay) if the pointer or focus
 * is still there. Focus stays on the trigger across the swap.
 */
export function LazyTooltip({ content, relationship, withArrow, children }: LazyTooltipProps) {
  const [Tooltip, setTooltip] = useState<FluentTooltip | null>(() => loaded);
  // whether the pointer or the focus is on the trigger (to show the tooltip once it has loaded)
  const hot = useRef({ pointer: false, focus: false });
  const [visible, setVisible] = useState(false);
  const triggerRef = useRef<HTMLElement | null>(null);
  const refocus = useRef(false);
  const descriptionId = useId();
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  // the trigger is a new element after the swap: give it back the focus the old one had
  useLayoutEffect(() => {
    if (Tooltip && refocus.current) {
      refocus.current = false;
      triggerRef.current?.focus();
    }
  }, [Tooltip]);

  if (Tooltip) {
    return (
      <Tooltip content={content} relationship={relationship} withArrow={withArrow} visible={visible} onVisibleChange={(_e, d) => setVisible(d.visible)}>
        {cloneElement(children, { ref: (el: HTMLElement | null) => (triggerRef.current = el) })}
      </Tooltip>
    );
  }

  const arm = () => {
    loadTooltip()
      .then((T) => {
        if (!live.current) return;
        refocus.current = !!triggerRef.current && triggerRef.current === document.activeElement;
        setVisible(hot.current.pointer || hot.current.focus);
        setTooltip(() => T);
      })
      .catch((e) => console.error(e));
  };
  const props = children.props;
  const trigger = cloneElement(children, {
    ref: (el: HTMLElement | null) => (triggerRef.current = el),
    ...(relationship === 'label' ? { 'aria-label': content } : { 'aria-describedby': descriptionId }),
    onPointerEnter: (e: PointerEvent<HTMLElement>) => {
      props.onPointerEnter?.(e);
      hot.current.pointer = true;
      arm();
    },
    onPointerLeave: (e: PointerEvent<HTMLElement>) => {
      props.onPointerLeave?.(e);
      hot.current.pointer = false;
    },
    onFocus: (e: FocusEvent<HTMLElement>) => {
      props.onFocus?.(e);
      hot.current.focus = true;
      arm();
    },
    onBlur: (e: FocusEvent<HTMLElement>) => {
      props.onBlur?.(e);
      hot.current.focus = false;
    },
  } as TriggerProps);
  return relationship === 'label' ? (
    trigger
  ) : (
    <>
      {trigger}
      <span id={descriptionId} hidden>
        {content}
      </span>
    </>
  );
}
