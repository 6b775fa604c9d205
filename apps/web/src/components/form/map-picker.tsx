import 'leaflet/dist/leaflet.css';
import { MAP_DEFAULT_CENTER, MAP_DEFAULT_ZOOM } from '@ev/shared';
import { Form, Typography } from 'antd';
import L from 'leaflet';
import { useEffect, useMemo, useRef } from 'react';
import { MapContainer, Marker, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { useAppConfig } from '../../lib/reference.ts';
import { useMarkDirty } from './setting-form.tsx';

/** Zoom used when a point is already set (an existing site). */
const POINT_ZOOM = 15;
/** Six decimals: about 10 cm, more than a charging site needs. */
const round = (value: number) => Math.round(value * 1e6) / 1e6;
const isCoordinate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A pin drawn in CSS: no marker image to fetch, so it shows with no network at all. */
const PIN = L.divIcon({
  className: 'map-picker-pin',
  html: '<span></span>',
  iconSize: [28, 28],
  iconAnchor: [14, 34],
});

function ClickToPlace({ onPlace }: { onPlace: (lat: number, lng: number) => void }) {
  useMapEvents({ click: (event) => onPlace(event.latlng.lat, event.latlng.lng) });
  return null;
}

/** Keeps a typed-in point in view. */
function FollowPoint({ point }: { point: [number, number] | null }) {
  const map = useMap();
  useEffect(() => {
    if (point && !map.getBounds().contains(point)) map.panTo(point);
  }, [map, point]);
  return null;
}

/**
 * The site form's map: a click sets the form's `latitude` and `longitude`, the pin can be dragged, and typing
 * the numbers moves the pin. Tiles come from the server's MAP_TILE_URL; without tiles (none configured, or no
 * network) the grey map still takes clicks and drags.
 */
export function MapPicker({ disabled = false }: { disabled?: boolean }) {
  const form = Form.useFormInstance();
  const markDirty = useMarkDirty();
  const config = useAppConfig();
  const latitude: unknown = Form.useWatch('latitude', form);
  const longitude: unknown = Form.useWatch('longitude', form);
  const point = useMemo<[number, number] | null>(
    () => (isCoordinate(latitude) && isCoordinate(longitude) ? [latitude, longitude] : null),
    [latitude, longitude],
  );
  // The first view: the site's point if it has one, else the default centre.
  const initial = useRef({
    center: point ?? MAP_DEFAULT_CENTER,
    zoom: point ? POINT_ZOOM : MAP_DEFAULT_ZOOM,
  });

  const place = (lat: number, lng: number) => {
    if (disabled) return;
    form.setFieldsValue({ latitude: round(lat), longitude: round(lng) });
    void form.validateFields(['latitude', 'longitude']);
    markDirty();
  };

  const tileUrl = config.data?.mapTileUrl;
  return (
    <div className="map-picker">
      <MapContainer
        center={initial.current.center}
        zoom={initial.current.zoom}
        style={{ height: 320, width: '100%' }}
        attributionControl={Boolean(tileUrl)}
        aria-label="Site location map"
      >
        {tileUrl && <TileLayer url={tileUrl} attribution={config.data?.mapAttribution} />}
        <ClickToPlace onPlace={place} />
        <FollowPoint point={point} />
        {point && (
          <Marker
            position={point}
            icon={PIN}
            draggable={!disabled}
            title="Site location"
            eventHandlers={{
              dragend: (event) => {
                const { lat, lng } = (event.target as L.Marker).getLatLng();
                place(lat, lng);
              },
            }}
          />
        )}
      </MapContainer>
      <Typography.Text type="secondary">
        {disabled ? 'Site location' : 'Click the map to set the location; drag the pin to move it.'}
      </Typography.Text>
    </div>
  );
}
