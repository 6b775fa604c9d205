import 'leaflet/dist/leaflet.css';
import './map-picker.css';
import { MAP_DEFAULT_CENTER, MAP_DEFAULT_ZOOM } from '@ev/shared';
import { Form, Typography } from 'antd';
import L from 'leaflet';
import { useEffect, useMemo, useRef, useState } from 'react';
import { AttributionControl, MapContainer, Marker, TileLayer, useMap, useMapEvents } from 'react-leaflet';
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

/** Shown on the map when it has no tiles to draw; clicks go through it to the map. */
export const NO_TILES_NOTICE = 'Map tiles are unavailable: the pin and the coordinates still work.';

/**
 * The server's tiles with their credit in the map's corner. The credit control comes with the layer, so it is
 * there whenever the tiles are, even when the map was drawn before `/api/app-config` answered. Tells whether
 * tiles load: failing while none of the current view's tiles has loaded (no network, a wrong URL).
 */
function Tiles({
  url,
  attribution,
  onFailing,
}: {
  url: string;
  attribution: string;
  onFailing: (failing: boolean) => void;
}) {
  const loadedInView = useRef(0);
  const events = useMemo<L.LeafletEventHandlerFnMap>(
    () => ({
      loading: () => {
        loadedInView.current = 0;
      },
      tileload: () => {
        loadedInView.current += 1;
        onFailing(false);
      },
      tileerror: () => {
        if (loadedInView.current === 0) onFailing(true);
      },
    }),
    [onFailing],
  );
  return (
    <>
      <TileLayer url={url} attribution={attribution} eventHandlers={events} />
      <AttributionControl />
    </>
  );
}

/**
 * The site form's map: a click sets the form's `latitude` and `longitude`, the pin can be dragged, and typing
 * the numbers moves the pin. Tiles come from the server's MAP_TILE_URL; without tiles (none configured, the
 * settings not loaded, or tiles failing) the map says so and still takes clicks and drags.
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

  const tileUrl = config.data?.mapTileUrl || null;
  const [tilesFailing, setTilesFailing] = useState(false);
  // While the settings load, no notice yet; after, none configured (or the call failed) means no tiles.
  const noTiles =
    config.isError || (config.isSuccess && tileUrl === null) || (tileUrl !== null && tilesFailing);
  return (
    <div className="map-picker">
      <div className="map-picker-frame">
        <MapContainer
          center={initial.current.center}
          zoom={initial.current.zoom}
          style={{ height: 320, width: '100%' }}
          attributionControl={false}
          aria-label="Site location map"
        >
          {tileUrl && (
            <Tiles
              url={tileUrl}
              attribution={config.data?.mapAttribution ?? ''}
              onFailing={setTilesFailing}
            />
          )}
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
        {noTiles && (
          <div className="map-picker-notice" role="status">
            {NO_TILES_NOTICE}
          </div>
        )}
      </div>
      <Typography.Text type="secondary">
        {disabled ? 'Site location' : 'Click the map to set the location; drag the pin to move it.'}
      </Typography.Text>
    </div>
  );
}
