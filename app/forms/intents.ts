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
  RealName: "real-name",
  /** Deposits: check the form and show the confirm step; then submit it. */
  ReviewDeposit: "review-deposit",
  SubmitDeposit: "submit-deposit",
  /** Operator: a deposit proof that is not a payment (status 3 invalid). */
  MarkInvalid: "mark-invalid",
  TransferReview: "transfer-review",
  /** The transfer form's "Transfer all": the confirm step with the from account's whole available balance, exactly. */
  TransferAll: "transfer-all",
  Transfer: "transfer",
  Preview: "preview",
  Withdraw: "withdraw",
  Edit: "edit",
  BindMethod: "bind-method",
  DeleteMethod: "delete-method",
  /** Copy trading. */
  ApplyTrader: "apply-trader",
  Follow: "follow",
  Unfollow: "unfollow",
  PauseFollow: "pause-follow",
  ResumeFollow: "resume-follow",
  CopyStop: "copy-stop",
  Suspend: "suspend",
  Resume: "resume",
  ProfitShare: "profit-share",
  /** A trader's picture (my-follower). */
  SetAvatar: "set-avatar",
  RemoveAvatar: "remove-avatar",
  /** Search page: remember the company chosen in its popup (cookie company_id). */
  ChooseCompany: "choose-company",
  /** Loans. */
  LoanKyc: "loan-kyc",
  ApplyLoan: "apply-loan",
  RepayLoan: "repay-loan",
  LoanConfig: "loan-config",
  /** Mining: check a subscription and show its confirm step; then subscribe; redeem early. */
  FundReview: "fund-review",
  FundSubscribe: "fund-subscribe",
  FundRedeem: "fund-redeem",
  FundSave: "fund-save",
  /** Option terms: an operator adds or saves a duration; replaces the preset stakes; sets what a wrong option costs. */
  OptionDurationSave: "option-duration-save",
  OptionStakesSave: "option-stakes-save",
  OptionLossSave: "option-loss-save",
  /** Content: an operator saves or deletes a news item / announcement; marks feedback read; a user sends feedback. */
  SaveContent: "save-content",
  DeleteContent: "delete-content",
  MarkRead: "mark-read",
  SendFeedback: "send-feedback",
  /** Site settings (operator): the support chat, the contact e-mail, open or closed, demo starting balances. */
  SettingsChat: "settings-chat",
  SettingsEmail: "settings-email",
  SettingsSite: "settings-site",
  SettingsDemo: "settings-demo",
  /** Engine (operator): hand a parked settlement back to the engine; send a dead job message again. */
  EngineRetry: "engine-retry",
  JobRequeue: "job-requeue",
} as const;

export type Intent = (typeof Intent)[keyof typeof Intent];
