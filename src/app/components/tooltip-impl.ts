/** The chunk LazyTooltip loads on first hover or focus: Fluent's Tooltip and its positioning. */
export { Tooltip } from '@fluentui/react-components';
