import { tokens } from '@fluentui/react-components';
import type { FluentIcon } from '@fluentui/react-icons';
import { EmojiAngry24Regular } from '@fluentui/react-icons/svg/emoji-angry';
import { EmojiLaugh24Regular } from '@fluentui/react-icons/svg/emoji-laugh';
import { EmojiMeh24Regular } from '@fluentui/react-icons/svg/emoji-meh';
import { EmojiSad24Regular } from '@fluentui/react-icons/svg/emoji-sad';
import { EmojiSadSlight24Regular } from '@fluentui/react-icons/svg/emoji-sad-slight';
import { EmojiSurprise24Regular } from '@fluentui/react-icons/svg/emoji-surprise';
import { Warning24Regular } from '@fluentui/react-icons/svg/warning';

/** The seven labels the server returns (Ekman's six plus neutral). */
export type EmotionName = 'anger' | 'disgust' | 'fear' | 'joy' | 'sadness' | 'surprise' | 'neutral';

export interface EmotionStyle {
  label: string;
  icon: FluentIcon;
  /** Text and icon colour (meets contrast on the matching background). */
  color: string;
  background: string;
  border: string;
}

/** Each emotion's label, icon and colours: the same everywhere an emotion is shown. */
export const EMOTION_STYLES: Record<EmotionName, EmotionStyle> = {
  joy: {
    label: 'Joy',
    icon: EmojiLaugh24Regular,
    color: tokens.colorPaletteGreenForeground1,
    background: tokens.colorPaletteGreenBackground1,
    border: tokens.colorPaletteGreenBorder1,
  },
  surprise: {
    label: 'Surprise',
    icon: EmojiSurprise24Regular,
    color: tokens.colorPaletteBerryForeground1,
    background: tokens.colorPaletteBerryBackground1,
    border: tokens.colorPaletteBerryBorder1,
  },
  sadness: {
    label: 'Sadness',
    icon: EmojiSad24Regular,
    color: tokens.colorPaletteBlueForeground2,
    background: tokens.colorPaletteBlueBackground2,
    border: tokens.colorPaletteBlueBorderActive,
  },
  fear: {
    label: 'Fear',
    icon: Warning24Regular,
    color: tokens.colorPalettePurpleForeground2,
    background: tokens.colorPalettePurpleBackground2,
    border: tokens.colorPalettePurpleBorderActive,
  },
  anger: {
    label: 'Anger',
    icon: EmojiAngry24Regular,
    color: tokens.colorPaletteRedForeground1,
    background: tokens.colorPaletteRedBackground1,
    border: tokens.colorPaletteRedBorder1,
  },
  disgust: {
    label: 'Disgust',
    icon: EmojiSadSlight24Regular,
    color: tokens.colorPaletteDarkOrangeForeground1,
    background: tokens.colorPaletteDarkOrangeBackground1,
    border: tokens.colorPaletteDarkOrangeBorder1,
  },
  neutral: {
    label: 'Neutral',
    icon: EmojiMeh24Regular,
    color: tokens.colorNeutralForeground2,
    background: tokens.colorNeutralBackground3,
    border: tokens.colorNeutralStroke2,
  },
};

/** The style of a label; an unknown label (a newer server) is shown as itself, neutrally. */
export function emotionStyle(emotion: string): EmotionStyle {
  const known = EMOTION_STYLES[emotion as EmotionName];
  if (known) return known;
  return { ...EMOTION_STYLES.neutral, label: emotion ? emotion[0].toUpperCase() + emotion.slice(1) : 'Unknown' };
}
