/**
 * What an uploaded file is for: the form slot it fills and who may see it (services/uploads.server.ts
 * stores it; components/photo-input.tsx names it when it uploads ahead).
 */
export type UploadPurpose = "identity" | "deposit_proof" | "repayment_proof" | "signature" | "other" | "news_image" | "avatar";
