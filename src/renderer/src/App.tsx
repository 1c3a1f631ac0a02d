/**
 * Media Task Studio's renderer: the shell (navigation, banners, toasts, first-run dialog) around
 * the four views. It knows main only through `bridge.ts` (`window.studio`).
 *
 * ---- For the browser tests: stable hooks ----------------------------------------------------
 * Landmarks: <nav aria-label="Main">, <main id="main">, <section aria-label="Notifications">
 *   (toast area, role=status live region; error toasts carry role=alert).
 * Navigation buttons (aria-current="page" when shown): "Compose", "Activity", "Library",
 *   "Settings"; data-testid nav-compose|nav-activity|nav-library|nav-settings;
 *   counts: data-testid active-count, uncertain-count (on the Activity item). Up to 960 px
 *   wide the navigation shows icons only; each name shows as a tooltip on hover and focus.
 * Headings: h1 "Compose" | "Activity" | "Library" | "Settings".
 * Menu commands (`menu.command` events): new-song, face-swap, image-edit (open that tab and
 *   focus its first field), compose, activity, library, settings | open-settings, focus-search.
 * Banners: data-testid offline-banner (data-kind no-network: "You're offline — tasks will be
 *   sent when the network returns"; unreachable: "The service at <address> cannot be reached…"),
 *   no-service-banner (buttons "Use the demo", "Add API key"), auth-banner, plan-banner (task
 *   types the plan refused in the last hour; "Show in Activity", "Dismiss"), library-notice
 *   (which library is shown after a switch; "Turn demo mode on", "Dismiss"), demo-banner (one
 *   line, its whole text in its title; "Dismiss" remembered in localStorage), boot-banner. Messages from main are shown as sentences (capital first letter).
 * First run: dialog data-testid welcome-dialog, buttons "Try the demo (built-in sandbox)",
 *   "Use my API key" (both set firstRun false); Escape only hides it until the next start.
 * Toasts: data-testid toast (data-tone info|success|error), shown at the bottom of the nav
 *   column (over no content); in windows up to 960 px wide they float at the top right of the
 *   view under the banners (the newest two; they take no row). Action buttons e.g.
 *   "View in Activity", "Open Settings", "Open", "Fix & retry", "Undo"; close button "Dismiss
 *   notification". Info/success go after 6 s, errors after 15 s; 4 at most. An identical toast
 *   in a row replaces the newest one and shows a count (data-testid toast-count "×3").
 *   Task notices: "Saved “<title>”" (Open), "“<title>” failed: …" (Fix & retry), expired and
 *   uncertain (Show in Activity), "Queue done: 2 saved, 1 failed" once the last active task
 *   ends after a run of two or more; a tone with each when Settings › Notifications says so.
 * Confirm dialogs: data-testid confirm-dialog; buttons "Cancel" and the action
 *   ("Submit again", "Delete", "Store unencrypted", "Remove key").
 *
 * Compose: role=tablist "Task family" with tabs "Song", "Face swap", "Image edit", "From a
 *   result", "Other" (arrow keys, Home, End); panel role=tabpanel data-testid compose-song|
 *   compose-faceSwap|compose-imageEdit|compose-fromResult|compose-other.
 *   Song: textarea "Style prompt"; toggle buttons "Style: <chip>" (aria-pressed); "Negative
 *   prompt"; textarea "Lyrics" (toolbar "Insert a section marker": "Insert [verse]" …
 *   Alt+1..4); data-testid lyrics-problems (above the lyrics) with items lyrics-problem
 *   (data-line, a button selecting the marker); range "Duration", number "Duration in seconds";
 *   slot style_audio.
 *   Media slots: fieldset data-testid media-slot data-field=<input field> data-status
 *   empty|checking|ok|bad; inside: drop-zone (drop files here), slot-file-input (hidden
 *   <input type=file>), URL box "<Label> URL" + button "Use URL", button "Browse for <Label>",
 *   "Remove <Label>", slot-name, slot-reason (the reason a slot is refused, or its info),
 *   slot-url-note (a web address: the service fetches it). Several files dropped on a slot fill
 *   the tab's following empty slots; Ctrl/Cmd+V in a slot pastes a picture or URL.
 *   Labels: "Target image" (target_image), "Face image" (swap_image), "image1".."image3",
 *   "Reference audio" (style_audio).
 *   Image edit: "Prompt", buttons "Insert image1 into the prompt"…, "Negative prompt",
 *   "Seed" + "Random seed", "Steps", "flow_shift".
 *   Face swap: radios "One face" / "Several faces" (multi-face swap: "Faces to replace (in the
 *   target image)", "Faces to use (from the face image)").
 *   From a result: radios "Extend", "Song edit", "Remix" (group "With a song"), "Upscale",
 *   "Remove background", "Segment" ("With a picture"); slot source_audio ("Song") or
 *   source_image ("Picture"); the operation's catalog fields by their labels ("Style of the new
 *   part", "Lyrics for the new part", "Seconds before", "Seconds after", "Scale", "What to cut
 *   out"…). Extend: extend-handles with sliders "Seconds to add before the song" / "…after the
 *   song" (aria-valuenow; arrows move them as they look, Home, End, Page Up/Down), extend-wave
 *   (data-ready), extend-summary (seconds added and the price). A library result in a slot
 *   shows its title (slot-name) and thumbnail; Queue bar parent-note ("Made from “<title>”",
 *   "Re-run of an earlier task").
 *   Other: selects "Model", "Task type" (each with its price), other-price; textarea "Input
 *   (JSON)" (Tab indents; Esc then Tab leaves); json-media-field (data-key) drop targets with
 *   json-media-check; "Insert example input".
 *   Every tab: "Title" (optional) above Advanced; the live check's problems show beside their
 *   fields (field-error, slot-reason) once a field is touched or Queue was tried.
 *   Advanced: button "Advanced: webhook" (aria-expanded); "Webhook endpoint", "Webhook secret".
 *   Queue bar: data-testid cost-estimate, buttons "Queue" (named "Queueing…" while the call
 *   runs; aria-disabled while the form has a problem, still focusable: pressing it, or
 *   Ctrl/Cmd+Enter anywhere in the composer, shows every problem and focuses the first) and
 *   "Clear", data-testid queue-reason (the first problem, or the form-level error). A task type
 *   with no published price asks first (confirm-dialog, "Queue anyway").
 *   Field errors from tasks.queue: data-testid field-error next to the field.
 * Activity: data-testid activity-list; section headings activity-section (data-section decide|
 *   running|queued|failed|finished); rows activity-row (data-task-id, data-state) with
 *   state-chip (what the task waits for while the service is out of reach: "Waiting for the
 *   network" / "Waiting for the service" / "Waiting for a key", and then no progressbar; "Not
 *   in your plan" for a failure the plan refused), a
 *   progressbar, activity-message, activity-cost ("Demo: not billed" in the demo library);
 *   buttons "Cancel", "Submit again", "Discard", "Open in Library"; on a failure "Fix & retry"
 *   (the composer on its tab, filled in, the failure as queue-reason and beside the field it
 *   names) and "Dismiss <title>" (off the list, kept in the library; toast with "Undo");
 *   button older-failures ("Show N older failures": failures created before the last day).
 * Library: role=search "Filter the library": searchbox "Search library", selects "Type",
 *   "State", "Sort", dates "From", "To", checkbox "Favourites only", "Clear filters";
 *   data-testid library-total, selection-count; buttons "Export selected", "Clear selection".
 *   Gallery: data-testid gallery (data-columns), role=list "Library results"; cards
 *   data-testid task-card (data-task-id, data-state, data-kind, data-favorite) with buttons
 *   "Open <title>", "Favourite <title>" (aria-pressed) and checkbox "Select <title>"
 *   (shift-click selects a range). One tab stop (only one card's controls have tabindex 0):
 *   arrows, Home, End move; Enter opens; Space plays a song; Delete deletes (the selection
 *   when the card is in it); Escape closes the detail; Ctrl/Cmd+A selects all.
 *   Toolbar "Selection": "Select all", "Clear selection", "Favourite selected" /
 *   "Unfavourite selected", "Re-run selected…" (confirm-dialog with data-testid rerun-total,
 *   "Queue N re-runs"), "Delete selected", "Export selected". A delete shows a toast
 *   "Deleted “<title>”" / "Deleted N tasks" with "Undo" for 5 s; tasks.delete is called after.
 * Detail: <aside> data-testid detail-panel (data-task-id); "Close details"; toolbar "Task
 *   actions": "Favourite" (aria-pressed), "Rename" (then "New title", "Save title"), "Re-run",
 *   "Export this", "Reveal in folder", drag-out (draggable), "Delete"; data-testid
 *   waveform-player (data-ready, data-playing) with waveform (role=slider "Playback
 *   position"), buttons "Play"/"Pause", "Back 5 s", "Forward 5 s", range "Zoom",
 *   player-time; before-after (range "Compare before and after", before-after-frame takes a
 *   drag); "View larger" opens the image viewer: dialog data-testid lightbox (named by the
 *   title, data-mode fit|actual|compare), buttons "Fit to window", "Actual size", "Compare
 *   with input" (aria-pressed; keys 0, 1, C), "Close viewer", lightbox-stage, lightbox-zoom;
 *   input pictures as input-thumb (data-field) in task-parameters; video-player;
 *   task-parameters, task-id, remote-id ("Copy task id", "Copy remote id"),
 *   cost-estimate-detail, state-history. result-actions ("Keep going from this song|picture"):
 *   song "Extend", "Edit", "Remix"; picture "Upscale", "Remove background", "Segment", "Use as
 *   face-swap target", "Use as face", "Edit (as image1)", "Multi-face swap" (select "Use" when
 *   several outputs are saved).
 * Settings: key-status ("Saved: a key is set" / "No key"), key-problem, password "API key"
 *   (or "Replace API key"), "Save key", "Remove key"; service-check (data-outcome checking|
 *   accepted|refused|unreachable|problem: what the balance call said when a key or address was
 *   saved, e.g. "Key accepted: balance $12.50 left"); switch "Demo mode (built-in sandbox)";
 *   service-now ("Now sending to: …"); radios "The hosted service" / "A custom address" (group
 *   "With your API key, use"); custom: "Service base URL", "Vendor", "Upload endpoint" + "Save
 *   custom service"; balance, balance-problem, "Check balance"; "Tasks at the service at once";
 *   "Advanced: model ids" with inputs model-id-<taskType>; library-dir (your library) and, in
 *   demo mode, library-in-use (the demo library) + "Choose folder…"; switch "Play a sound when
 *   a task ends" (Notifications);
 *   radios "System", "Light", "Dark" (group "Theme"); "Budget in dollars" + "Save budget";
 *   data-testid cost-summary (meter "Budget used").
 * Queue bar: cost-estimate, balance-compact; banners service-limit-banner.
 * Player (shown once a song is played, across every view): region "Player" data-testid
 *   player-bar (data-task-id, data-playing) at the bottom of the window; buttons "Previous song",
 *   "Play"/"Pause", "Next song" (disabled without a neighbour in the library list), "Show details:
 *   <title>", "Loop" (aria-pressed), "Close player"; player-bar-wave (role=slider "Position in
 *   <title>": arrows ±5 s, Home, End); player-bar-time ("0:03 / 0:06"); range "Volume".
 *   Song cards: button "Play <title>" / "Pause <title>" (data-testid song-play).
 *   In windows up to 720 px high or 1000 px wide the bar gives up its row while Compose is
 *   shown: data-testid player-fold on the Queue bar's second line ("Play"/"Pause", "Show
 *   details: <title>", the time).
 * Recent results (Compose, windows 1600 px and wider): region "Recent results" data-testid
 *   recent-results beside the composer, up to six recent-result buttons (a saved task's title;
 *   opens its detail in the Library).
 * ----------------------------------------------------------------------------------------------
 */
import { useRef } from 'react';
import { Banners } from './components/Banners.tsx';
import { NavBar } from './components/NavBar.tsx';
import { Toasts } from './components/Toasts.tsx';
import { WelcomeDialog } from './components/WelcomeDialog.tsx';
import { ActivityView } from './features/activity/ActivityView.tsx';
import { ComposeView } from './features/compose/ComposeView.tsx';
import { AccountHistoryView } from './features/history/AccountHistoryView.tsx';
import { LibraryView } from './features/library/LibraryView.tsx';
import { RecentResults } from './features/library/RecentResults.tsx';
import { PlayerBar } from './features/player/index.ts';
import { useLibrarySwitch } from './features/settings/library-switch.ts';
import { SettingsView } from './features/settings/SettingsView.tsx';
import { useFocusRequest } from './hooks/useFocusRequest.ts';
import { useTaskEvents } from './hooks/useTaskEvents.ts';
import { useTheme } from './hooks/useTheme.ts';
import { useUi, type View } from './state/ui-state.ts';

function CurrentView({ view }: { view: View }) {
  switch (view) {
    case 'activity':
      return <ActivityView />;
    case 'library':
      return <LibraryView />;
    case 'history':
      return <AccountHistoryView />;
    case 'settings':
      return <SettingsView />;
    default:
      return <ComposeView />;
  }
}

export function App() {
  useTaskEvents();
  useLibrarySwitch();
  useTheme();
  const view = useUi((s) => s.view);
  const mainRef = useRef<HTMLElement>(null);
  useFocusRequest('main', mainRef);
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <NavBar />
      <div className="app-body">
        <Banners />
        <main id="main" ref={mainRef} tabIndex={-1} className="main" data-view={view}>
          <CurrentView view={view} />
          {view === 'compose' ? <RecentResults /> : null}
        </main>
        <Toasts />
      </div>
      <PlayerBar />
      <WelcomeDialog />
    </div>
  );
}
