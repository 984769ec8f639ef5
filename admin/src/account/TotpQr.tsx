// The otpauth:// URI as a QR code for an authenticator app to scan.
import { useEffect, useState } from "react";
import { Box } from "@mui/material";
import QRCode from "qrcode";

export function TotpQr({ uri }: { uri: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(uri, { margin: 1, width: 192 }).then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [uri]);
  if (!src) return null;
  return (
    <Box
      component="img"
      src={src}
      alt="QR code of your two-factor key, to scan with an authenticator app"
      data-testid="totp-qr"
      sx={{ display: "block", width: 192, height: 192, my: 1 }}
    />
  );
}
