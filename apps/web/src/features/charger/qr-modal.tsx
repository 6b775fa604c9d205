import type { Connector } from '@ev/shared';
import { Button, Flex, Typography } from 'antd';
import { QRCodeCanvas } from 'qrcode.react';
import { useRef } from 'react';
import { AppModal } from '../../components/app-modal.tsx';
import { saveBlob } from '../../components/save-file.ts';

/** Section 9: a 200 px image, error correction L, with a margin, saved as QrCodeEVCharger.png. */
export const QR_SIZE = 200;
export const QR_FILE_NAME = 'QrCodeEVCharger.png';
/** The standard quiet zone of a QR code: four modules. */
const QR_MARGIN = 4;

/** What a connector's QR code holds: the code printed by the old system when it has one, else its token. */
export const qrValue = (connector: Pick<Connector, 'oldQr' | 'token'>) => connector.oldQr ?? connector.token;

/**
 * The canvas as a 200 x 200 PNG. qrcode.react draws at the screen's pixel ratio (400 px on a 2x screen), so
 * it is copied onto a canvas of exactly 200 px first, without smoothing to keep the modules sharp.
 */
function savePng(source: HTMLCanvasElement) {
  const canvas = document.createElement('canvas');
  canvas.width = QR_SIZE;
  canvas.height = QR_SIZE;
  const context = canvas.getContext('2d');
  if (!context) return;
  context.imageSmoothingEnabled = false;
  context.drawImage(source, 0, 0, QR_SIZE, QR_SIZE);
  canvas.toBlob((blob) => blob && saveBlob(blob, QR_FILE_NAME), 'image/png');
}

/** The connector's QR code, with Download QR and Close. */
export function QrModal({
  chargerName,
  connector,
  onClose,
}: {
  chargerName: string;
  connector: Connector;
  onClose: () => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const value = qrValue(connector);
  return (
    <AppModal
      open
      title="QR Code"
      onCancel={onClose}
      footer={[
        <Button key="close" onClick={onClose}>
          Close
        </Button>,
        <Button key="download" type="primary" onClick={() => canvas.current && savePng(canvas.current)}>
          Download QR
        </Button>,
      ]}
    >
      <Flex vertical align="center" gap={8}>
        <Typography.Text strong>
          {chargerName} – {connector.nameEn}
        </Typography.Text>
        <QRCodeCanvas
          ref={canvas}
          value={value}
          size={QR_SIZE}
          level="L"
          boostLevel={false}
          marginSize={QR_MARGIN}
          title={`QR code of connector ${connector.id}`}
          role="img"
          aria-label={`QR code of connector ${connector.id}`}
        />
        <Typography.Text type="secondary" copyable style={{ wordBreak: 'break-all', textAlign: 'center' }}>
          {value}
        </Typography.Text>
      </Flex>
    </AppModal>
  );
}
