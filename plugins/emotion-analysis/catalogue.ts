import type { CatalogueContribution } from '../../src/server';
import { AI_PROVIDER, connectors, trigger, SOLUTIONS } from '../../src/server';

export const EMOTION_TEXT_WORKFLOW = 10002;
export const EMOTION_AUDIO_VIDEO_WORKFLOW = 10003;

const ANALYSE = { kind: 'action', provider: AI_PROVIDER, action: 'analyse_emotions' } as const;

export const catalogue: CatalogueContribution = {
  workflows: [
    {
      id: EMOTION_TEXT_WORKFLOW,
      solution_id: SOLUTIONS.customerExperience.id,
      name: 'Emotion Analysis from Text Files',
      descrption:
        'Find the emotions in reviews, survey answers, chats and e-mails, sentence by sentence, so you can see at a glance what delights customers and what frustrates them.',
      icon: 'emotion',
    },
    {
      id: EMOTION_AUDIO_VIDEO_WORKFLOW,
      solution_id: SOLUTIONS.customerExperience.id,
      name: 'Emotion Analysis from Audio/Video',
      descrption: 'Transcribe support calls and video feedback and read the emotions in them. Vote for it to help us prioritise.',
      icon: 'coming_soon',
    },
  ],
  combinations: [
    {
      id: 6,
      workflow_id: EMOTION_TEXT_WORKFLOW,
      order: 2,
      name: 'Customer Feedback Emotions to Google Sheets',
      sub_title: 'Label every feedback file in a Drive folder and collect the results in a spreadsheet',
      icon: 'emotion',
      created_time: '2024-04-08T10:00:00Z',
      status: 'active',
      enabled: true,
      recommended: false,
      triggers: [trigger('google_drive_new_file')],
      connectors: connectors('google_drive', AI_PROVIDER, 'google_sheets'),
      recipe: {
        name: 'Emotion Analysis from Google Drive to Google Sheets',
        description:
          'Each new text file in the watched Google Drive folder is analysed by Flowmatic AI; one row per sentence and emotion is appended to a Google Sheet.',
        steps: [
          { kind: 'trigger', provider: 'google_drive', action: 'new_file_in_folder' },
          { kind: 'action', provider: 'google_drive', action: 'download_file' },
          ANALYSE,
          { kind: 'action', provider: 'google_sheets', action: 'append_rows' },
        ],
      },
    },
    {
      id: 7,
      starter_recipe: true,
      completes_on_start: true,
      workflow_id: EMOTION_TEXT_WORKFLOW,
      order: 1,
      name: 'Emotion Analysis from Text (basic)',
      sub_title: 'Paste or upload text and see the emotion behind each sentence',
      icon: 'emotion',
      created_time: '2024-04-01T10:00:00Z',
      status: 'active',
      enabled: true,
      recommended: true,
      triggers: [trigger('text_submitted')],
      connectors: connectors('manual_upload', AI_PROVIDER),
      recipe: {
        name: 'Emotion Analysis from Text Basic',
        description: 'Analyses submitted text with Flowmatic AI and lists each sentence with its emotion.',
        steps: [{ kind: 'trigger', provider: 'manual_upload', action: 'text_submitted' }, ANALYSE],
      },
    },
    {
      id: 15,
      workflow_id: EMOTION_AUDIO_VIDEO_WORKFLOW,
      order: 1,
      name: 'Call Recordings Emotions to Google Sheets',
      sub_title: 'Transcribe recorded calls from Drive and chart how each conversation felt',
      icon: 'audio_video',
      created_time: '2024-05-06T10:00:00Z',
      status: 'coming_soon',
      enabled: true,
      recommended: false,
      triggers: [trigger('google_drive_new_file')],
      connectors: connectors('google_drive', AI_PROVIDER, 'google_sheets'),
      recipe: {
        name: 'Emotion Analysis from Call Recordings',
        description: 'Transcribes each new recording in a Google Drive folder, analyses the emotions per speaker turn and appends them to a Google Sheet.',
        steps: [
          { kind: 'trigger', provider: 'google_drive', action: 'new_file_in_folder' },
          { kind: 'action', provider: AI_PROVIDER, action: 'transcribe_audio' },
          ANALYSE,
          { kind: 'action', provider: 'google_sheets', action: 'append_rows' },
        ],
      },
    },
  ],
};
