import { createCanvas } from '@napi-rs/canvas';
import { imageSize } from 'image-size';
import { generateBannerPng, generateLogoPng, reencodeToPng, initials, ImageError } from '../../../plugins/public-generators/engine/images';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const isPng = (bytes: Buffer) => bytes.subarray(0, 8).equals(PNG_SIGNATURE);

describe('generated images', () => {
  it('draws a square PNG logo from the initials', () => {
    expect(initials('Brightwater Analytics')).toBe('BA');
    expect(initials('acme')).toBe('A');
    const logo = generateLogoPng('Brightwater Analytics');
    expect(isPng(logo)).toBe(true);
    expect(imageSize(logo)).toMatchObject({ width: 512, height: 512, type: 'png' });
    expect(generateLogoPng('Brightwater Analytics').equals(logo)).toBe(true); // stable per name
    expect(generateLogoPng('Pedal Doctors').equals(logo)).toBe(false);
    expect(() => generateLogoPng('  ')).toThrow(ImageError);
  });

  it('draws two distinct 1200×630 PNG banners', () => {
    const one = generateBannerPng('Brightwater Analytics launches LeakWatch 2', 1);
    const two = generateBannerPng('Brightwater Analytics launches LeakWatch 2', 2);
    for (const banner of [one, two]) {
      expect(isPng(banner)).toBe(true);
      expect(imageSize(banner)).toMatchObject({ width: 1200, height: 630 });
    }
    expect(one.equals(two)).toBe(false);
    expect(() => generateBannerPng('', 1)).toThrow('A banner needs some text.');
  });
});

describe('reencodeToPng', () => {
  function jpeg(width: number, height: number): Buffer {
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#3366cc';
    ctx.fillRect(0, 0, width, height);
    return canvas.toBuffer('image/jpeg');
  }

  it('re-encodes a raster image to PNG, scaled to fit', async () => {
    const png = await reencodeToPng(jpeg(1000, 500), 256);
    expect(isPng(png)).toBe(true);
    expect(imageSize(png)).toMatchObject({ width: 256, height: 128 });
    const small = await reencodeToPng(jpeg(40, 20), 256);
    expect(imageSize(small)).toMatchObject({ width: 40, height: 20 });
  });

  it('turns an SVG into PNG, without its scripts or external references', async () => {
    const svg = Buffer.from(
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100">' +
        '<script>alert(1)</script><image xlink:href="file:///etc/passwd" width="10" height="10"/>' +
        '<rect width="200" height="100" fill="#e33"/></svg>',
    );
    const png = await reencodeToPng(svg, 512);
    expect(isPng(png)).toBe(true);
    expect(imageSize(png)).toMatchObject({ width: 200, height: 100, type: 'png' });
    expect(png.includes(Buffer.from('<svg'))).toBe(false);
  });

  it('refuses images over 40 megapixels before decoding them', async () => {
    // A PNG header claiming 10000×5000 with no pixel data: only the size is read.
    const header = Buffer.alloc(33);
    PNG_SIGNATURE.copy(header, 0);
    header.writeUInt32BE(13, 8);
    header.write('IHDR', 12, 'ascii');
    header.writeUInt32BE(10000, 16);
    header.writeUInt32BE(5000, 20);
    header.writeUInt8(8, 24);
    header.writeUInt8(6, 25);
    await expect(reencodeToPng(header)).rejects.toThrow('The image is too large (10000×5000); at most 40 megapixels can be read.');
    const hugeSvg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="20000"></svg>');
    await expect(reencodeToPng(hugeSvg)).rejects.toThrow(ImageError);
  });

  it('refuses things that are not images', async () => {
    await expect(reencodeToPng(Buffer.from('<html>hello</html>'))).rejects.toThrow('That file is not an image we can read.');
    await expect(reencodeToPng(Buffer.alloc(0))).rejects.toThrow('The image is empty.');
  });
});
