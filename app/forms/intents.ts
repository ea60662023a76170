/**
 * The named intents of submit buttons (`name="intent"`), one constant per action, used by the
 * forms and the actions' `switch (intent)` (an unknown intent answers 400).
 */
export const Intent = {
  Login: "login",
  Register: "register",
  SendCode: "send-code",
  Reset: "reset",
  Amend: "amend",
  ResetDemo: "reset-demo",
  Theme: "theme",
  Assets: "assets",
  Language: "language",
  Logout: "logout",
  Demo: "demo",
  CloseOrder: "close-order",
  CancelOrder: "cancel-order",
  SetStops: "set-stops",
  Verify: "verify",
  Approve: "approve",
  Reject: "reject",
  Preview: "preview",
  Withdraw: "withdraw",
  Edit: "edit",
  BindMethod: "bind-method",
  DeleteMethod: "delete-method",
} as const;

export type Intent = (typeof Intent)[keyof typeof Intent];
